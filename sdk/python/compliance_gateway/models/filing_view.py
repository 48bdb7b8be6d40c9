from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filing_problem import FilingProblem


T = TypeVar("T", bound="FilingView")


@_attrs_define
class FilingView:
    """
    Attributes:
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        created_by (str):
        errors (list[FilingProblem]):
        filing_id (str):
        format_ (str):
        valid (bool):
        alert_id (None | str | Unset): the CTR candidate's alert, for a CTR
        xml (None | str | Unset): absent once the filing was erased
    """

    created_at: datetime.datetime
    created_by: str
    errors: list[FilingProblem]
    filing_id: str
    format_: str
    valid: bool
    alert_id: None | str | Unset = UNSET
    xml: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by = self.created_by

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        filing_id = self.filing_id

        format_ = self.format_

        valid = self.valid

        alert_id: None | str | Unset
        if isinstance(self.alert_id, Unset):
            alert_id = UNSET
        else:
            alert_id = self.alert_id

        xml: None | str | Unset
        if isinstance(self.xml, Unset):
            xml = UNSET
        else:
            xml = self.xml

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "created_by": created_by,
                "errors": errors,
                "filing_id": filing_id,
                "format": format_,
                "valid": valid,
            }
        )
        if alert_id is not UNSET:
            field_dict["alert_id"] = alert_id
        if xml is not UNSET:
            field_dict["xml"] = xml

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_problem import FilingProblem

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        created_by = d.pop("created_by")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = FilingProblem.from_dict(errors_item_data)

            errors.append(errors_item)

        filing_id = d.pop("filing_id")

        format_ = d.pop("format")

        valid = d.pop("valid")

        def _parse_alert_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        alert_id = _parse_alert_id(d.pop("alert_id", UNSET))

        def _parse_xml(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        xml = _parse_xml(d.pop("xml", UNSET))

        filing_view = cls(
            created_at=created_at,
            created_by=created_by,
            errors=errors,
            filing_id=filing_id,
            format_=format_,
            valid=valid,
            alert_id=alert_id,
            xml=xml,
        )

        filing_view.additional_properties = d
        return filing_view

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
