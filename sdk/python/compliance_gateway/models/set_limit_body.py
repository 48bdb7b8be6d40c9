from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..models.limit_type import LimitType

T = TypeVar("T", bound="SetLimitBody")


@_attrs_define
class SetLimitBody:
    """The body of `POST /v1/limits`.

    Attributes:
        amount_cents (int): a positive amount in minor currency units
        currency (Currency): an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD
            three)
        limit_type (LimitType):
        requested_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        user_id (str):
    """

    amount_cents: int
    currency: Currency
    limit_type: LimitType
    requested_at: datetime.datetime
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        currency = self.currency.value

        limit_type = self.limit_type.value

        requested_at = self.requested_at.isoformat()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_cents": amount_cents,
                "currency": currency,
                "limit_type": limit_type,
                "requested_at": requested_at,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        currency = Currency(d.pop("currency"))

        limit_type = LimitType(d.pop("limit_type"))

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        user_id = d.pop("user_id")

        set_limit_body = cls(
            amount_cents=amount_cents,
            currency=currency,
            limit_type=limit_type,
            requested_at=requested_at,
            user_id=user_id,
        )

        set_limit_body.additional_properties = d
        return set_limit_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
