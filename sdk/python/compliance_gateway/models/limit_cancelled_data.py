from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.limit_type import LimitType

T = TypeVar("T", bound="LimitCancelledData")


@_attrs_define
class LimitCancelledData:
    """`limit.cancelled`: a pending increase was cancelled.

    Attributes:
        amount_cents (int):
        currency (str):
        limit_id (str):
        limit_type (LimitType):
        user_id (str):
    """

    amount_cents: int
    currency: str
    limit_id: str
    limit_type: LimitType
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        currency = self.currency

        limit_id = self.limit_id

        limit_type = self.limit_type.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount_cents": amount_cents,
                "currency": currency,
                "limit_id": limit_id,
                "limit_type": limit_type,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        currency = d.pop("currency")

        limit_id = d.pop("limit_id")

        limit_type = LimitType(d.pop("limit_type"))

        user_id = d.pop("user_id")

        limit_cancelled_data = cls(
            amount_cents=amount_cents,
            currency=currency,
            limit_id=limit_id,
            limit_type=limit_type,
            user_id=user_id,
        )

        return limit_cancelled_data
