from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.filing_view import FilingView


T = TypeVar("T", bound="CaseFilings")


@_attrs_define
class CaseFilings:
    """
    Attributes:
        case_id (str):
        filings (list[FilingView]):
    """

    case_id: str
    filings: list[FilingView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        filings = []
        for filings_item_data in self.filings:
            filings_item = filings_item_data.to_dict()
            filings.append(filings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "filings": filings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_view import FilingView

        d = dict(src_dict)
        case_id = d.pop("case_id")

        filings = []
        _filings = d.pop("filings")
        for filings_item_data in _filings:
            filings_item = FilingView.from_dict(filings_item_data)

            filings.append(filings_item)

        case_filings = cls(
            case_id=case_id,
            filings=filings,
        )

        case_filings.additional_properties = d
        return case_filings

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
