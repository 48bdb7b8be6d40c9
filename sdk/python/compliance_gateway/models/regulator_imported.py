from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RegulatorImported")


@_attrs_define
class RegulatorImported:
    """What a regulator import did.

    Attributes:
        decision_id (str): the logged rules decision
        exclusion_ids (list[str]):
        imported (int):
        skipped (int): entries the regulator had already excluded
    """

    decision_id: str
    exclusion_ids: list[str]
    imported: int
    skipped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision_id = self.decision_id

        exclusion_ids = self.exclusion_ids

        imported = self.imported

        skipped = self.skipped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision_id": decision_id,
                "exclusion_ids": exclusion_ids,
                "imported": imported,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision_id = d.pop("decision_id")

        exclusion_ids = cast(list[str], d.pop("exclusion_ids"))

        imported = d.pop("imported")

        skipped = d.pop("skipped")

        regulator_imported = cls(
            decision_id=decision_id,
            exclusion_ids=exclusion_ids,
            imported=imported,
            skipped=skipped,
        )

        regulator_imported.additional_properties = d
        return regulator_imported

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
