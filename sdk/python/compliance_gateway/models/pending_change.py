from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PendingChange")


@_attrs_define
class PendingChange:
    """A pending increase of a limit in force.

    Attributes:
        amount_cents (int):
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        limit_id (str):
        status (str):
    """

    amount_cents: int
    effective_from: datetime.datetime
    limit_id: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_cents = self.amount_cents

        effective_from = self.effective_from.isoformat()

        limit_id = self.limit_id

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_cents": amount_cents,
                "effective_from": effective_from,
                "limit_id": limit_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount_cents = d.pop("amount_cents")

        effective_from = datetime.datetime.fromisoformat(d.pop("effective_from"))

        limit_id = d.pop("limit_id")

        status = d.pop("status")

        pending_change = cls(
            amount_cents=amount_cents,
            effective_from=effective_from,
            limit_id=limit_id,
            status=status,
        )

        pending_change.additional_properties = d
        return pending_change

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
