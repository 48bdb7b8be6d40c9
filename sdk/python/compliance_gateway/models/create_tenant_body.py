from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.environment import Environment
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tenant_screening_request import TenantScreeningRequest


T = TypeVar("T", bound="CreateTenantBody")


@_attrs_define
class CreateTenantBody:
    """The body of `POST /v1/admin/tenants`.

    Attributes:
        environment (Environment): a tenant's environment
        name (str):
        jurisdiction (None | str | Unset): the rules profile of the tenant's decisions (`GET /v1/rules` lists them);
            `default` when absent or null Default: 'default'.
        rate_limit_per_minute (int | None | Unset):
        screening (None | TenantScreeningRequest | Unset):
    """

    environment: Environment
    name: str
    jurisdiction: None | str | Unset = "default"
    rate_limit_per_minute: int | None | Unset = UNSET
    screening: None | TenantScreeningRequest | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tenant_screening_request import TenantScreeningRequest

        environment = self.environment.value

        name = self.name

        jurisdiction: None | str | Unset
        if isinstance(self.jurisdiction, Unset):
            jurisdiction = UNSET
        else:
            jurisdiction = self.jurisdiction

        rate_limit_per_minute: int | None | Unset
        if isinstance(self.rate_limit_per_minute, Unset):
            rate_limit_per_minute = UNSET
        else:
            rate_limit_per_minute = self.rate_limit_per_minute

        screening: dict[str, Any] | None | Unset
        if isinstance(self.screening, Unset):
            screening = UNSET
        elif isinstance(self.screening, TenantScreeningRequest):
            screening = self.screening.to_dict()
        else:
            screening = self.screening

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "environment": environment,
                "name": name,
            }
        )
        if jurisdiction is not UNSET:
            field_dict["jurisdiction"] = jurisdiction
        if rate_limit_per_minute is not UNSET:
            field_dict["rate_limit_per_minute"] = rate_limit_per_minute
        if screening is not UNSET:
            field_dict["screening"] = screening

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tenant_screening_request import TenantScreeningRequest

        d = dict(src_dict)
        environment = Environment(d.pop("environment"))

        name = d.pop("name")

        def _parse_jurisdiction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        jurisdiction = _parse_jurisdiction(d.pop("jurisdiction", UNSET))

        def _parse_rate_limit_per_minute(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_minute = _parse_rate_limit_per_minute(
            d.pop("rate_limit_per_minute", UNSET)
        )

        def _parse_screening(data: object) -> None | TenantScreeningRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                screening_type_0 = TenantScreeningRequest.from_dict(data)

                return screening_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TenantScreeningRequest | Unset, data)

        screening = _parse_screening(d.pop("screening", UNSET))

        create_tenant_body = cls(
            environment=environment,
            name=name,
            jurisdiction=jurisdiction,
            rate_limit_per_minute=rate_limit_per_minute,
            screening=screening,
        )

        create_tenant_body.additional_properties = d
        return create_tenant_body

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
