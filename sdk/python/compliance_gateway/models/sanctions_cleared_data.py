from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SanctionsClearedData")


@_attrs_define
class SanctionsClearedData:
    """`sanctions.cleared`: the compliance team dismissed the case.

    Attributes:
        case_id (str):
        reviewer (str):
        transactions_held (bool):
        user_id (str):
    """

    case_id: str
    reviewer: str
    transactions_held: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        reviewer = self.reviewer

        transactions_held = self.transactions_held

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "case_id": case_id,
                "reviewer": reviewer,
                "transactions_held": transactions_held,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        case_id = d.pop("case_id")

        reviewer = d.pop("reviewer")

        transactions_held = d.pop("transactions_held")

        user_id = d.pop("user_id")

        sanctions_cleared_data = cls(
            case_id=case_id,
            reviewer=reviewer,
            transactions_held=transactions_held,
            user_id=user_id,
        )

        return sanctions_cleared_data
