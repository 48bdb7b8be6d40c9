from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..models.limit_type import LimitType

if TYPE_CHECKING:
    from ..models.pending_change import PendingChange


T = TypeVar("T", bound="LimitInForce")


@_attrs_define
class LimitInForce:
    """A limit in force with where the user stands against it.

    Attributes:
        amount_cents (int):
        currency (Currency): an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD
            three)
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        limit_id (str):
        limit_type (LimitType):
        next_reset_at (datetime.datetime | None):
        pending_change (None | PendingChange):
        remaining_cents (int):
        spent_cents (int):
        status (str):
    """

    amount_cents: int
    currency: Currency
    effective_from: datetime.datetime
    limit_id: str
    limit_type: LimitType
    next_reset_at: datetime.datetime | None
    pending_change: None | PendingChange
    remaining_cents: int
    spent_cents: int
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.pending_change import PendingChange

        amount_cents = self.amount_cents

        currency = self.currency.value

        effective_from = self.effective_from.isoformat()

        limit_id = self.limit_id

        limit_type = self.limit_type.value

        next_reset_at: None | str
        if isinstance(self.next_reset_at, datetime.datetime):
            next_reset_at = self.next_reset_at.isoformat()
        else:
            next_reset_at = self.next_reset_at

        pending_change: dict[str, Any] | None
        if isinstance(self.pending_change, PendingChange):
            pending_change = self.pending_change.to_dict()
        else:
            pending_change = self.pending_change

        remaining_cents = self.remaining_cents

        spent_cents = self.spent_cents

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_cents": amount_cents,
                "currency": currency,
                "effective_from": effective_from,
                "limit_id": limit_id,
                "limit_type": limit_type,
                "next_reset_at": next_reset_at,
                "pending_change": pending_change,
                "remaining_cents": remaining_cents,
                "spent_cents": spent_cents,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pending_change import PendingChange

        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        currency = Currency(d.pop("currency"))

        effective_from = datetime.datetime.fromisoformat(d.pop("effective_from"))

        limit_id = d.pop("limit_id")

        limit_type = LimitType(d.pop("limit_type"))

        def _parse_next_reset_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_reset_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_reset_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_reset_at = _parse_next_reset_at(d.pop("next_reset_at"))

        def _parse_pending_change(data: object) -> None | PendingChange:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_change_type_0 = PendingChange.from_dict(data)

                return pending_change_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PendingChange, data)

        pending_change = _parse_pending_change(d.pop("pending_change"))

        remaining_cents = d.pop("remaining_cents")

        spent_cents = d.pop("spent_cents")

        status = d.pop("status")

        limit_in_force = cls(
            amount_cents=amount_cents,
            currency=currency,
            effective_from=effective_from,
            limit_id=limit_id,
            limit_type=limit_type,
            next_reset_at=next_reset_at,
            pending_change=pending_change,
            remaining_cents=remaining_cents,
            spent_cents=spent_cents,
            status=status,
        )

        limit_in_force.additional_properties = d
        return limit_in_force

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
