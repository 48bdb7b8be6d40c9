from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.limit_type import LimitType

T = TypeVar("T", bound="LimitBreachData")


@_attrs_define
class LimitBreachData:
    """`limit.breach_attempt`: a deposit was refused for going over a limit.

    Attributes:
        already_spent_cents (int):
        amount_cents (int):
        currency (str):
        limit_amount_cents (int):
        limit_type (LimitType):
        user_id (str):
    """

    already_spent_cents: int
    amount_cents: int
    currency: str
    limit_amount_cents: int
    limit_type: LimitType
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        already_spent_cents = self.already_spent_cents

        amount_cents = self.amount_cents

        currency = self.currency

        limit_amount_cents = self.limit_amount_cents

        limit_type = self.limit_type.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "already_spent_cents": already_spent_cents,
                "amount_cents": amount_cents,
                "currency": currency,
                "limit_amount_cents": limit_amount_cents,
                "limit_type": limit_type,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        already_spent_cents = d.pop("already_spent_cents")

        amount_cents = d.pop("amount_cents")

        currency = d.pop("currency")

        limit_amount_cents = d.pop("limit_amount_cents")

        limit_type = LimitType(d.pop("limit_type"))

        user_id = d.pop("user_id")

        limit_breach_data = cls(
            already_spent_cents=already_spent_cents,
            amount_cents=amount_cents,
            currency=currency,
            limit_amount_cents=limit_amount_cents,
            limit_type=limit_type,
            user_id=user_id,
        )

        return limit_breach_data
