from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Rotated")


@_attrs_define
class Rotated:
    """
    Attributes:
        previous_secret_expires_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        secret (str):
        webhook_id (str):
    """

    previous_secret_expires_at: datetime.datetime
    secret: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        secret = self.secret

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "previous_secret_expires_at": previous_secret_expires_at,
                "secret": secret,
                "webhook_id": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        previous_secret_expires_at = datetime.datetime.fromisoformat(
            d.pop("previous_secret_expires_at")
        )

        secret = d.pop("secret")

        webhook_id = d.pop("webhook_id")

        rotated = cls(
            previous_secret_expires_at=previous_secret_expires_at,
            secret=secret,
            webhook_id=webhook_id,
        )

        rotated.additional_properties = d
        return rotated

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
