from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.regulator_import_entry import RegulatorImportEntry


T = TypeVar("T", bound="ImportRegulatorExclusionsBody")


@_attrs_define
class ImportRegulatorExclusionsBody:
    """The body of a regulator import.

    Attributes:
        entries (list[RegulatorImportEntry]):
    """

    entries: list[RegulatorImportEntry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.regulator_import_entry import RegulatorImportEntry

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = RegulatorImportEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        import_regulator_exclusions_body = cls(
            entries=entries,
        )

        import_regulator_exclusions_body.additional_properties = d
        return import_regulator_exclusions_body

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
