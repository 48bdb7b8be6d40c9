from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fincen_settings import FincenSettings
    from ..models.goaml_settings import GoamlSettings


T = TypeVar("T", bound="SetTenantFilingSettingsBody")


@_attrs_define
class SetTenantFilingSettingsBody:
    """A tenant's filing settings.

    Attributes:
        fincen (FincenSettings | None | Unset):
        goaml (GoamlSettings | None | Unset):
    """

    fincen: FincenSettings | None | Unset = UNSET
    goaml: GoamlSettings | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.fincen_settings import FincenSettings
        from ..models.goaml_settings import GoamlSettings

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

        field_dict.update({})
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

        set_tenant_filing_settings_body = cls(
            fincen=fincen,
            goaml=goaml,
        )

        return set_tenant_filing_settings_body
