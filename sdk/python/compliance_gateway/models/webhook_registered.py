from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookRegistered")


@_attrs_define
class WebhookRegistered:
    """
    Attributes:
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        enabled (bool):
        secret (str): shown here and on rotation only
        url (str):
        webhook_id (str):
    """

    created_at: datetime.datetime
    enabled: bool
    secret: str
    url: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        secret = self.secret

        url = self.url

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "enabled": enabled,
                "secret": secret,
                "url": url,
                "webhook_id": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        secret = d.pop("secret")

        url = d.pop("url")

        webhook_id = d.pop("webhook_id")

        webhook_registered = cls(
            created_at=created_at,
            enabled=enabled,
            secret=secret,
            url=url,
            webhook_id=webhook_id,
        )

        webhook_registered.additional_properties = d
        return webhook_registered

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
