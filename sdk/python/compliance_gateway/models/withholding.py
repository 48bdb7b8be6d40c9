from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.withheld_kind import WithheldKind

T = TypeVar("T", bound="Withholding")


@_attrs_define
class Withholding:
    """One record withheld from the export, with its legal basis (the team's view only).

    Attributes:
        basis (str): the basis's stable code, from the rules (`uk_dpa_2018_sch2_para2`, …)
        kind (WithheldKind): What kind of record is withheld.
        record_id (str): the record's id
    """

    basis: str
    kind: WithheldKind
    record_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        basis = self.basis

        kind = self.kind.value

        record_id = self.record_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "basis": basis,
                "kind": kind,
                "record_id": record_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        basis = d.pop("basis")

        kind = WithheldKind(d.pop("kind"))

        record_id = d.pop("record_id")

        withholding = cls(
            basis=basis,
            kind=kind,
            record_id=record_id,
        )

        withholding.additional_properties = d
        return withholding

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
