from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AccessExportWithdrawal")


@_attrs_define
class AccessExportWithdrawal:
    """
    Attributes:
        amount (int): minor units of `currency`
        created_at (str):
        currency (str):
        status (str):
        withdrawal_id (str):
    """

    amount: int
    created_at: str
    currency: str
    status: str
    withdrawal_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        created_at = self.created_at

        currency = self.currency

        status = self.status

        withdrawal_id = self.withdrawal_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "created_at": created_at,
                "currency": currency,
                "status": status,
                "withdrawal_id": withdrawal_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = d.pop("created_at")

        currency = d.pop("currency")

        status = d.pop("status")

        withdrawal_id = d.pop("withdrawal_id")

        access_export_withdrawal = cls(
            amount=amount,
            created_at=created_at,
            currency=currency,
            status=status,
            withdrawal_id=withdrawal_id,
        )

        access_export_withdrawal.additional_properties = d
        return access_export_withdrawal

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
