from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SanctionsHitData")


@_attrs_define
class SanctionsHitData:
    """`sanctions.hit`: a screening matched a sanctions list; the case waits for review.
    Nothing of the entry matched is carried.

        Attributes:
            case_id (str):
            screen_id (str):
            status (str): the user's sanctions status
            transactions_held (bool):
            user_id (str):
    """

    case_id: str
    screen_id: str
    status: str
    transactions_held: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        screen_id = self.screen_id

        status = self.status

        transactions_held = self.transactions_held

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "case_id": case_id,
                "screen_id": screen_id,
                "status": status,
                "transactions_held": transactions_held,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        case_id = d.pop("case_id")

        screen_id = d.pop("screen_id")

        status = d.pop("status")

        transactions_held = d.pop("transactions_held")

        user_id = d.pop("user_id")

        sanctions_hit_data = cls(
            case_id=case_id,
            screen_id=screen_id,
            status=status,
            transactions_held=transactions_held,
            user_id=user_id,
        )

        return sanctions_hit_data
