from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AccountFrozenData")


@_attrs_define
class AccountFrozenData:
    """`sanctions.account_frozen`: the user's funds are frozen after a confirmed match.

    Attributes:
        case_id (str):
        funds_frozen (bool):
        user_id (str):
    """

    case_id: str
    funds_frozen: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        funds_frozen = self.funds_frozen

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "case_id": case_id,
                "funds_frozen": funds_frozen,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        case_id = d.pop("case_id")

        funds_frozen = d.pop("funds_frozen")

        user_id = d.pop("user_id")

        account_frozen_data = cls(
            case_id=case_id,
            funds_frozen=funds_frozen,
            user_id=user_id,
        )

        return account_frozen_data
