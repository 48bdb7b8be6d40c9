from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.spelling import Spelling

T = TypeVar("T", bound="AlignedPart")


@_attrs_define
class AlignedPart:
    """A part of the listed name and the screened name's part aligned with it: one word, or neighbouring words read
    together. An empty `query` is a listed part not found; an empty `listed` a screened word left over.

        Attributes:
            listed (str):
            query (str):
            similarity (float):
            spelling (Spelling): the spelling two name parts were compared in: as written, or through a romanization table
                (Cyrillic in English, German or French transcription; Korean; Arabic; consonants only, for a name read from
                Arabic or Hebrew script)
    """

    listed: str
    query: str
    similarity: float
    spelling: Spelling
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        listed = self.listed

        query = self.query

        similarity = self.similarity

        spelling = self.spelling.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "listed": listed,
                "query": query,
                "similarity": similarity,
                "spelling": spelling,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        listed = d.pop("listed")

        query = d.pop("query")

        similarity = d.pop("similarity")

        spelling = Spelling(d.pop("spelling"))

        aligned_part = cls(
            listed=listed,
            query=query,
            similarity=similarity,
            spelling=spelling,
        )

        aligned_part.additional_properties = d
        return aligned_part

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
