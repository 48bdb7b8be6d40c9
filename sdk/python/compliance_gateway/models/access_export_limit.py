from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccessExportLimit")


@_attrs_define
class AccessExportLimit:
    """
    Attributes:
        amount (int):
        created_at (str):
        currency (str):
        effective_from (str):
        limit_id (str):
        limit_type (str):
        status (str):
        cancelled_at (None | str | Unset):
    """

    amount: int
    created_at: str
    currency: str
    effective_from: str
    limit_id: str
    limit_type: str
    status: str
    cancelled_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        created_at = self.created_at

        currency = self.currency

        effective_from = self.effective_from

        limit_id = self.limit_id

        limit_type = self.limit_type

        status = self.status

        cancelled_at: None | str | Unset
        if isinstance(self.cancelled_at, Unset):
            cancelled_at = UNSET
        else:
            cancelled_at = self.cancelled_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "created_at": created_at,
                "currency": currency,
                "effective_from": effective_from,
                "limit_id": limit_id,
                "limit_type": limit_type,
                "status": status,
            }
        )
        if cancelled_at is not UNSET:
            field_dict["cancelled_at"] = cancelled_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = d.pop("created_at")

        currency = d.pop("currency")

        effective_from = d.pop("effective_from")

        limit_id = d.pop("limit_id")

        limit_type = d.pop("limit_type")

        status = d.pop("status")

        def _parse_cancelled_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cancelled_at = _parse_cancelled_at(d.pop("cancelled_at", UNSET))

        access_export_limit = cls(
            amount=amount,
            created_at=created_at,
            currency=currency,
            effective_from=effective_from,
            limit_id=limit_id,
            limit_type=limit_type,
            status=status,
            cancelled_at=cancelled_at,
        )

        access_export_limit.additional_properties = d
        return access_export_limit

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
