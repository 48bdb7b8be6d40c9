from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SanctionsConfirmedData")


@_attrs_define
class SanctionsConfirmedData:
    """`sanctions.confirmed`: the compliance team confirmed the match.

    Attributes:
        account_terminated (bool):
        case_id (str):
        reviewer (str):
        transactions_held (bool):
        user_id (str):
    """

    account_terminated: bool
    case_id: str
    reviewer: str
    transactions_held: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        account_terminated = self.account_terminated

        case_id = self.case_id

        reviewer = self.reviewer

        transactions_held = self.transactions_held

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_terminated": account_terminated,
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
        account_terminated = d.pop("account_terminated")

        case_id = d.pop("case_id")

        reviewer = d.pop("reviewer")

        transactions_held = d.pop("transactions_held")

        user_id = d.pop("user_id")

        sanctions_confirmed_data = cls(
            account_terminated=account_terminated,
            case_id=case_id,
            reviewer=reviewer,
            transactions_held=transactions_held,
            user_id=user_id,
        )

        return sanctions_confirmed_data
