from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..models.limit_type import LimitType
from ..models.new_limit_status import NewLimitStatus

T = TypeVar("T", bound="LimitSet")


@_attrs_define
class LimitSet:
    """A limit as set; stored and answered again on a repeat.

    Attributes:
        amount_cents (int):
        cooloff_seconds (int):
        currency (Currency): an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD
            three)
        current_limit_cents (int | None): the limit in force before, if any
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        is_increase (bool):
        limit_id (str):
        limit_type (LimitType):
        status (NewLimitStatus):
        user_id (str):
    """

    amount_cents: int
    cooloff_seconds: int
    currency: Currency
    current_limit_cents: int | None
    effective_from: datetime.datetime
    is_increase: bool
    limit_id: str
    limit_type: LimitType
    status: NewLimitStatus
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        cooloff_seconds = self.cooloff_seconds

        currency = self.currency.value

        current_limit_cents: int | None
        current_limit_cents = self.current_limit_cents

        effective_from = self.effective_from.isoformat()

        is_increase = self.is_increase

        limit_id = self.limit_id

        limit_type = self.limit_type.value

        status = self.status.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_cents": amount_cents,
                "cooloff_seconds": cooloff_seconds,
                "currency": currency,
                "current_limit_cents": current_limit_cents,
                "effective_from": effective_from,
                "is_increase": is_increase,
                "limit_id": limit_id,
                "limit_type": limit_type,
                "status": status,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        cooloff_seconds = d.pop("cooloff_seconds")

        currency = Currency(d.pop("currency"))

        def _parse_current_limit_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        current_limit_cents = _parse_current_limit_cents(d.pop("current_limit_cents"))

        effective_from = datetime.datetime.fromisoformat(d.pop("effective_from"))

        is_increase = d.pop("is_increase")

        limit_id = d.pop("limit_id")

        limit_type = LimitType(d.pop("limit_type"))

        status = NewLimitStatus(d.pop("status"))

        user_id = d.pop("user_id")

        limit_set = cls(
            amount_cents=amount_cents,
            cooloff_seconds=cooloff_seconds,
            currency=currency,
            current_limit_cents=current_limit_cents,
            effective_from=effective_from,
            is_increase=is_increase,
            limit_id=limit_id,
            limit_type=limit_type,
            status=status,
            user_id=user_id,
        )

        limit_set.additional_properties = d
        return limit_set

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
