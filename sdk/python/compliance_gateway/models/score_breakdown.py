from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScoreBreakdown")


@_attrs_define
class ScoreBreakdown:
    """How a name scored against an entry, part by part.

    Attributes:
        date_of_birth (float):
        name (float):
        nationality (float):
    """

    date_of_birth: float
    name: float
    nationality: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        date_of_birth = self.date_of_birth

        name = self.name

        nationality = self.nationality

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date_of_birth": date_of_birth,
                "name": name,
                "nationality": nationality,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date_of_birth = d.pop("date_of_birth")

        name = d.pop("name")

        nationality = d.pop("nationality")

        score_breakdown = cls(
            date_of_birth=date_of_birth,
            name=name,
            nationality=nationality,
        )

        score_breakdown.additional_properties = d
        return score_breakdown

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
