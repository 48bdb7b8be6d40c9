from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        disabled_reason (None | str): why the endpoint was disabled, while it is
        enabled (bool):
        url (str):
        webhook_id (str):
    """

    created_at: datetime.datetime
    disabled_reason: None | str
    enabled: bool
    url: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        enabled = self.enabled

        url = self.url

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "url": url,
                "webhook_id": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        enabled = d.pop("enabled")

        url = d.pop("url")

        webhook_id = d.pop("webhook_id")

        webhook_endpoint = cls(
            created_at=created_at,
            disabled_reason=disabled_reason,
            enabled=enabled,
            url=url,
            webhook_id=webhook_id,
        )

        webhook_endpoint.additional_properties = d
        return webhook_endpoint

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
