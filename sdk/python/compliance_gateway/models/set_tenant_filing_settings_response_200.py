from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fincen_settings import FincenSettings
    from ..models.goaml_settings import GoamlSettings


T = TypeVar("T", bound="SetTenantFilingSettingsResponse200")


@_attrs_define
class SetTenantFilingSettingsResponse200:
    """
    Attributes:
        tenant_id (str):
        fincen (FincenSettings | None | Unset):
        goaml (GoamlSettings | None | Unset):
    """

    tenant_id: str
    fincen: FincenSettings | None | Unset = UNSET
    goaml: GoamlSettings | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fincen_settings import FincenSettings
        from ..models.goaml_settings import GoamlSettings

        tenant_id = self.tenant_id

        fincen: dict[str, Any] | None | Unset
        if isinstance(self.fincen, Unset):
            fincen = UNSET
        elif isinstance(self.fincen, FincenSettings):
            fincen = self.fincen.to_dict()
        else:
            fincen = self.fincen

        goaml: dict[str, Any] | None | Unset
        if isinstance(self.goaml, Unset):
            goaml = UNSET
        elif isinstance(self.goaml, GoamlSettings):
            goaml = self.goaml.to_dict()
        else:
            goaml = self.goaml

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
            }
        )
        if fincen is not UNSET:
            field_dict["fincen"] = fincen
        if goaml is not UNSET:
            field_dict["goaml"] = goaml

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fincen_settings import FincenSettings
        from ..models.goaml_settings import GoamlSettings

        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        def _parse_fincen(data: object) -> FincenSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fincen_type_0 = FincenSettings.from_dict(data)

                return fincen_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FincenSettings | None | Unset, data)

        fincen = _parse_fincen(d.pop("fincen", UNSET))

        def _parse_goaml(data: object) -> GoamlSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                goaml_type_0 = GoamlSettings.from_dict(data)

                return goaml_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GoamlSettings | None | Unset, data)

        goaml = _parse_goaml(d.pop("goaml", UNSET))

        set_tenant_filing_settings_response_200 = cls(
            tenant_id=tenant_id,
            fincen=fincen,
            goaml=goaml,
        )

        set_tenant_filing_settings_response_200.additional_properties = d
        return set_tenant_filing_settings_response_200

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
