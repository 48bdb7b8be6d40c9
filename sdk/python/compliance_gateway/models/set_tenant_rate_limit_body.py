from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SetTenantRateLimitBody")


@_attrs_define
class SetTenantRateLimitBody:
    """The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.

    Attributes:
        rate_limit_per_minute (int):
    """

    rate_limit_per_minute: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rate_limit_per_minute = self.rate_limit_per_minute

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rate_limit_per_minute": rate_limit_per_minute,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rate_limit_per_minute = d.pop("rate_limit_per_minute")

        set_tenant_rate_limit_body = cls(
            rate_limit_per_minute=rate_limit_per_minute,
        )

        set_tenant_rate_limit_body.additional_properties = d
        return set_tenant_rate_limit_body

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
