from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..models.deposit_committed_status import DepositCommittedStatus

T = TypeVar("T", bound="DepositCommitted")


@_attrs_define
class DepositCommitted:
    """A recorded deposit; stored and answered again on a repeat.

    Attributes:
        amount_cents (int):
        committed_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        currency (Currency): an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD
            three)
        status (DepositCommittedStatus):
        transaction_id (str):
        user_id (str):
    """

    amount_cents: int
    committed_at: datetime.datetime
    currency: Currency
    status: DepositCommittedStatus
    transaction_id: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        committed_at = self.committed_at.isoformat()

        currency = self.currency.value

        status = self.status.value

        transaction_id = self.transaction_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_cents": amount_cents,
                "committed_at": committed_at,
                "currency": currency,
                "status": status,
                "transaction_id": transaction_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        committed_at = datetime.datetime.fromisoformat(d.pop("committed_at"))

        currency = Currency(d.pop("currency"))

        status = DepositCommittedStatus(d.pop("status"))

        transaction_id = d.pop("transaction_id")

        user_id = d.pop("user_id")

        deposit_committed = cls(
            amount_cents=amount_cents,
            committed_at=committed_at,
            currency=currency,
            status=status,
            transaction_id=transaction_id,
            user_id=user_id,
        )

        deposit_committed.additional_properties = d
        return deposit_committed

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
