from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.environment import Environment

if TYPE_CHECKING:
    from ..models.screening_switches import ScreeningSwitches


T = TypeVar("T", bound="TenantCreated")


@_attrs_define
class TenantCreated:
    """A new tenant with its first key, shown once.

    Attributes:
        api_key (str):
        environment (Environment): a tenant's environment
        jurisdiction (str):
        key_id (str):
        name (str):
        rate_limit_per_minute (int):
        screening (ScreeningSwitches): Which topics beyond sanctions a tenant screens for. A PEP or an
            adverse-media match opens a due-diligence case and holds nothing.
        tenant_id (str):
    """

    api_key: str
    environment: Environment
    jurisdiction: str
    key_id: str
    name: str
    rate_limit_per_minute: int
    screening: ScreeningSwitches
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_key = self.api_key

        environment = self.environment.value

        jurisdiction = self.jurisdiction

        key_id = self.key_id

        name = self.name

        rate_limit_per_minute = self.rate_limit_per_minute

        screening = self.screening.to_dict()

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "api_key": api_key,
                "environment": environment,
                "jurisdiction": jurisdiction,
                "key_id": key_id,
                "name": name,
                "rate_limit_per_minute": rate_limit_per_minute,
                "screening": screening,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.screening_switches import ScreeningSwitches

        d = dict(src_dict)
        api_key = d.pop("api_key")

        environment = Environment(d.pop("environment"))

        jurisdiction = d.pop("jurisdiction")

        key_id = d.pop("key_id")

        name = d.pop("name")

        rate_limit_per_minute = d.pop("rate_limit_per_minute")

        screening = ScreeningSwitches.from_dict(d.pop("screening"))

        tenant_id = d.pop("tenant_id")

        tenant_created = cls(
            api_key=api_key,
            environment=environment,
            jurisdiction=jurisdiction,
            key_id=key_id,
            name=name,
            rate_limit_per_minute=rate_limit_per_minute,
            screening=screening,
            tenant_id=tenant_id,
        )

        tenant_created.additional_properties = d
        return tenant_created

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
