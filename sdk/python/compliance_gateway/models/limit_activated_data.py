from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.limit_type import LimitType

T = TypeVar("T", bound="LimitActivatedData")


@_attrs_define
class LimitActivatedData:
    """`limit.activated`: a raised limit went live after its cooling-off period.

    Attributes:
        amount_cents (int):
        currency (str):
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        limit_id (str):
        limit_type (LimitType):
        user_id (str):
    """

    amount_cents: int
    currency: str
    effective_from: datetime.datetime
    limit_id: str
    limit_type: LimitType
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        currency = self.currency

        effective_from = self.effective_from.isoformat()

        limit_id = self.limit_id

        limit_type = self.limit_type.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount_cents": amount_cents,
                "currency": currency,
                "effective_from": effective_from,
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

        effective_from = datetime.datetime.fromisoformat(d.pop("effective_from"))

        limit_id = d.pop("limit_id")

        limit_type = LimitType(d.pop("limit_type"))

        user_id = d.pop("user_id")

        limit_activated_data = cls(
            amount_cents=amount_cents,
            currency=currency,
            effective_from=effective_from,
            limit_id=limit_id,
            limit_type=limit_type,
            user_id=user_id,
        )

        return limit_activated_data
