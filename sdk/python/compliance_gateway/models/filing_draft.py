from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.filing_problem import FilingProblem


T = TypeVar("T", bound="FilingDraft")


@_attrs_define
class FilingDraft:
    """
    Attributes:
        errors (list[FilingProblem]):
        filing_id (str):
        format_ (str): `fincen-sar`, `fincen-ctr` or `goaml`
        valid (bool): whether the draft has no problem; an invalid draft is answered all the same
        xml (str): the draft, for upload by the officer: the gateway never submits
    """

    errors: list[FilingProblem]
    filing_id: str
    format_: str
    valid: bool
    xml: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        filing_id = self.filing_id

        format_ = self.format_

        valid = self.valid

        xml = self.xml

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "errors": errors,
                "filing_id": filing_id,
                "format": format_,
                "valid": valid,
                "xml": xml,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_problem import FilingProblem

        d = dict(src_dict)
        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = FilingProblem.from_dict(errors_item_data)

            errors.append(errors_item)

        filing_id = d.pop("filing_id")

        format_ = d.pop("format")

        valid = d.pop("valid")

        xml = d.pop("xml")

        filing_draft = cls(
            errors=errors,
            filing_id=filing_id,
            format_=format_,
            valid=valid,
            xml=xml,
        )

        filing_draft.additional_properties = d
        return filing_draft

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
