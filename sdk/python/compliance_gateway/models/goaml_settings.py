from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.goaml_settings_funds_codes import GoamlSettingsFundsCodes
    from ..models.goaml_settings_indicators import GoamlSettingsIndicators
    from ..models.goaml_settings_report_codes import GoamlSettingsReportCodes


T = TypeVar("T", bound="GoamlSettings")


@_attrs_define
class GoamlSettings:
    """An FIU's goAML profile.

    Attributes:
        currency_code_local (str):
        indicators (GoamlSettingsIndicators): typology name → the FIU's indicator codes
        rentity_id (int): the FIU's number for the reporting entity
        report_codes (GoamlSettingsReportCodes): the FIU's report codes: `str` for a report with transactions, `sar` for
            one without
        funds_codes (GoamlSettingsFundsCodes | Unset): payment method → the FIU's funds code
        required_fields (list[str] | Unset): subject fields the FIU requires beyond its schema (`date_of_birth`,
            `address.zip` …)
        transmode_code (None | str | Unset): the FIU's conduction code of an online transaction
    """

    currency_code_local: str
    indicators: GoamlSettingsIndicators
    rentity_id: int
    report_codes: GoamlSettingsReportCodes
    funds_codes: GoamlSettingsFundsCodes | Unset = UNSET
    required_fields: list[str] | Unset = UNSET
    transmode_code: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        currency_code_local = self.currency_code_local

        indicators = self.indicators.to_dict()

        rentity_id = self.rentity_id

        report_codes = self.report_codes.to_dict()

        funds_codes: dict[str, Any] | Unset = UNSET
        if not isinstance(self.funds_codes, Unset):
            funds_codes = self.funds_codes.to_dict()

        required_fields: list[str] | Unset = UNSET
        if not isinstance(self.required_fields, Unset):
            required_fields = self.required_fields

        transmode_code: None | str | Unset
        if isinstance(self.transmode_code, Unset):
            transmode_code = UNSET
        else:
            transmode_code = self.transmode_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currency_code_local": currency_code_local,
                "indicators": indicators,
                "rentity_id": rentity_id,
                "report_codes": report_codes,
            }
        )
        if funds_codes is not UNSET:
            field_dict["funds_codes"] = funds_codes
        if required_fields is not UNSET:
            field_dict["required_fields"] = required_fields
        if transmode_code is not UNSET:
            field_dict["transmode_code"] = transmode_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.goaml_settings_funds_codes import GoamlSettingsFundsCodes
        from ..models.goaml_settings_indicators import GoamlSettingsIndicators
        from ..models.goaml_settings_report_codes import GoamlSettingsReportCodes

        d = dict(src_dict)
        currency_code_local = d.pop("currency_code_local")

        indicators = GoamlSettingsIndicators.from_dict(d.pop("indicators"))

        rentity_id = d.pop("rentity_id")

        report_codes = GoamlSettingsReportCodes.from_dict(d.pop("report_codes"))

        _funds_codes = d.pop("funds_codes", UNSET)
        funds_codes: GoamlSettingsFundsCodes | Unset
        if isinstance(_funds_codes, Unset):
            funds_codes = UNSET
        else:
            funds_codes = GoamlSettingsFundsCodes.from_dict(_funds_codes)

        required_fields = cast(list[str], d.pop("required_fields", UNSET))

        def _parse_transmode_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transmode_code = _parse_transmode_code(d.pop("transmode_code", UNSET))

        goaml_settings = cls(
            currency_code_local=currency_code_local,
            indicators=indicators,
            rentity_id=rentity_id,
            report_codes=report_codes,
            funds_codes=funds_codes,
            required_fields=required_fields,
            transmode_code=transmode_code,
        )

        return goaml_settings
