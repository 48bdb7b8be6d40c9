from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..models.tier import Tier

T = TypeVar("T", bound="KycTierView")


@_attrs_define
class KycTierView:
    """A user's verified tier and where the next one is needed.

    Attributes:
        cumulative_withdrawn_cents (int):
        currency (Currency | None):
        max_withdrawal_cents (int | None): `null` when unbounded
        next_tier_required_at_cents (int | None):
        user_id (str):
        verified_at (datetime.datetime | None):
        verified_tier (Tier): a KYC tier, keyed to lifetime withdrawals
    """

    cumulative_withdrawn_cents: int
    currency: Currency | None
    max_withdrawal_cents: int | None
    next_tier_required_at_cents: int | None
    user_id: str
    verified_at: datetime.datetime | None
    verified_tier: Tier
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cumulative_withdrawn_cents = self.cumulative_withdrawn_cents

        currency: None | str
        if isinstance(self.currency, Currency):
            currency = self.currency.value
        else:
            currency = self.currency

        max_withdrawal_cents: int | None
        max_withdrawal_cents = self.max_withdrawal_cents

        next_tier_required_at_cents: int | None
        next_tier_required_at_cents = self.next_tier_required_at_cents

        user_id = self.user_id

        verified_at: None | str
        if isinstance(self.verified_at, datetime.datetime):
            verified_at = self.verified_at.isoformat()
        else:
            verified_at = self.verified_at

        verified_tier = self.verified_tier.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cumulative_withdrawn_cents": cumulative_withdrawn_cents,
                "currency": currency,
                "max_withdrawal_cents": max_withdrawal_cents,
                "next_tier_required_at_cents": next_tier_required_at_cents,
                "user_id": user_id,
                "verified_at": verified_at,
                "verified_tier": verified_tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cumulative_withdrawn_cents = d.pop("cumulative_withdrawn_cents")

        def _parse_currency(data: object) -> Currency | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_0 = Currency(data)

                return currency_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Currency | None, data)

        currency = _parse_currency(d.pop("currency"))

        def _parse_max_withdrawal_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_withdrawal_cents = _parse_max_withdrawal_cents(
            d.pop("max_withdrawal_cents")
        )

        def _parse_next_tier_required_at_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_tier_required_at_cents = _parse_next_tier_required_at_cents(
            d.pop("next_tier_required_at_cents")
        )

        user_id = d.pop("user_id")

        def _parse_verified_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verified_at_type_0 = datetime.datetime.fromisoformat(data)

                return verified_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        verified_at = _parse_verified_at(d.pop("verified_at"))

        verified_tier = Tier(d.pop("verified_tier"))

        kyc_tier_view = cls(
            cumulative_withdrawn_cents=cumulative_withdrawn_cents,
            currency=currency,
            max_withdrawal_cents=max_withdrawal_cents,
            next_tier_required_at_cents=next_tier_required_at_cents,
            user_id=user_id,
            verified_at=verified_at,
            verified_tier=verified_tier,
        )

        kyc_tier_view.additional_properties = d
        return kyc_tier_view

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
