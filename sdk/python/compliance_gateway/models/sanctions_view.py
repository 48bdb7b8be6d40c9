from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sanctions_status import SanctionsStatus

T = TypeVar("T", bound="SanctionsView")


@_attrs_define
class SanctionsView:
    """
    Attributes:
        checked_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        last_screened_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        status (SanctionsStatus): a user's screening status
        transactions_held (bool):
        updated_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        user_id (str):
    """

    checked_at: datetime.datetime
    last_screened_at: datetime.datetime
    status: SanctionsStatus
    transactions_held: bool
    updated_at: datetime.datetime
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_at = self.checked_at.isoformat()

        last_screened_at = self.last_screened_at.isoformat()

        status = self.status.value

        transactions_held = self.transactions_held

        updated_at = self.updated_at.isoformat()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_at": checked_at,
                "last_screened_at": last_screened_at,
                "status": status,
                "transactions_held": transactions_held,
                "updated_at": updated_at,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        last_screened_at = datetime.datetime.fromisoformat(d.pop("last_screened_at"))

        status = SanctionsStatus(d.pop("status"))

        transactions_held = d.pop("transactions_held")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        user_id = d.pop("user_id")

        sanctions_view = cls(
            checked_at=checked_at,
            last_screened_at=last_screened_at,
            status=status,
            transactions_held=transactions_held,
            updated_at=updated_at,
            user_id=user_id,
        )

        sanctions_view.additional_properties = d
        return sanctions_view

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
