from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DueDiligenceData")


@_attrs_define
class DueDiligenceData:
    """`screening.pep_match`, `screening.adverse_media_match`: enhanced due
    diligence is required; nothing of the entry matched is carried.

        Attributes:
            due_diligence_required (bool):
            screen_id (str):
            transactions_held (bool):
            user_id (str):
    """

    due_diligence_required: bool
    screen_id: str
    transactions_held: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        due_diligence_required = self.due_diligence_required

        screen_id = self.screen_id

        transactions_held = self.transactions_held

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "due_diligence_required": due_diligence_required,
                "screen_id": screen_id,
                "transactions_held": transactions_held,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        due_diligence_required = d.pop("due_diligence_required")

        screen_id = d.pop("screen_id")

        transactions_held = d.pop("transactions_held")

        user_id = d.pop("user_id")

        due_diligence_data = cls(
            due_diligence_required=due_diligence_required,
            screen_id=screen_id,
            transactions_held=transactions_held,
            user_id=user_id,
        )

        return due_diligence_data
