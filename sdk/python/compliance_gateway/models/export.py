from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.exported_exclusion import ExportedExclusion


T = TypeVar("T", bound="Export")


@_attrs_define
class Export:
    """
    Attributes:
        exclusions (list[ExportedExclusion]):
        exported (int):
        exported_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    exclusions: list[ExportedExclusion]
    exported: int
    exported_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exclusions = []
        for exclusions_item_data in self.exclusions:
            exclusions_item = exclusions_item_data.to_dict()
            exclusions.append(exclusions_item)

        exported = self.exported

        exported_at = self.exported_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exclusions": exclusions,
                "exported": exported,
                "exported_at": exported_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.exported_exclusion import ExportedExclusion

        d = dict(src_dict)
        exclusions = []
        _exclusions = d.pop("exclusions")
        for exclusions_item_data in _exclusions:
            exclusions_item = ExportedExclusion.from_dict(exclusions_item_data)

            exclusions.append(exclusions_item)

        exported = d.pop("exported")

        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))

        export = cls(
            exclusions=exclusions,
            exported=exported,
            exported_at=exported_at,
        )

        export.additional_properties = d
        return export

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
