from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TenantRateLimit")


@_attrs_define
class TenantRateLimit:
    """A tenant's request rate per key, as set.

    Attributes:
        rate_limit_per_minute (int):
        tenant_id (str):
    """

    rate_limit_per_minute: int
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rate_limit_per_minute = self.rate_limit_per_minute

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rate_limit_per_minute": rate_limit_per_minute,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rate_limit_per_minute = d.pop("rate_limit_per_minute")

        tenant_id = d.pop("tenant_id")

        tenant_rate_limit = cls(
            rate_limit_per_minute=rate_limit_per_minute,
            tenant_id=tenant_id,
        )

        tenant_rate_limit.additional_properties = d
        return tenant_rate_limit

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
