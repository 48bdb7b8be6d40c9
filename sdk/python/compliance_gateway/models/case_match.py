from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.entry_topic import EntryTopic
from ..models.name_reading import NameReading
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.aligned_part import AlignedPart
    from ..models.score_breakdown import ScoreBreakdown


T = TypeVar("T", bound="CaseMatch")


@_attrs_define
class CaseMatch:
    """A matched list entry, as the compliance team sees it in a case.

    Attributes:
        entity_id (str):
        entity_name (str):
        fingerprint (str): a digest of the entry's record as matched: a dismissal is remembered until it changes
        list_ (str):
        score (float):
        score_breakdown (ScoreBreakdown): How a name scored against an entry, part by part.
        topic (EntryTopic): why a list entry is listed: a sanction, a PEP, or adverse media
        aligned (list[AlignedPart] | Unset): the listed name's parts in order, each with the screened name's part
            aligned with it, then the screened
            name's words left over (cases opened before alignments were recorded have none)
        list_version (None | str | Unset): the version of the list the match was found in (cases opened before versions
            were recorded have none)
        reading (NameReading | None | Unset):
    """

    entity_id: str
    entity_name: str
    fingerprint: str
    list_: str
    score: float
    score_breakdown: ScoreBreakdown
    topic: EntryTopic
    aligned: list[AlignedPart] | Unset = UNSET
    list_version: None | str | Unset = UNSET
    reading: NameReading | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity_id = self.entity_id

        entity_name = self.entity_name

        fingerprint = self.fingerprint

        list_ = self.list_

        score = self.score

        score_breakdown = self.score_breakdown.to_dict()

        topic = self.topic.value

        aligned: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.aligned, Unset):
            aligned = []
            for aligned_item_data in self.aligned:
                aligned_item = aligned_item_data.to_dict()
                aligned.append(aligned_item)

        list_version: None | str | Unset
        if isinstance(self.list_version, Unset):
            list_version = UNSET
        else:
            list_version = self.list_version

        reading: None | str | Unset
        if isinstance(self.reading, Unset):
            reading = UNSET
        elif isinstance(self.reading, NameReading):
            reading = self.reading.value
        else:
            reading = self.reading

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entity_id": entity_id,
                "entity_name": entity_name,
                "fingerprint": fingerprint,
                "list": list_,
                "score": score,
                "score_breakdown": score_breakdown,
                "topic": topic,
            }
        )
        if aligned is not UNSET:
            field_dict["aligned"] = aligned
        if list_version is not UNSET:
            field_dict["list_version"] = list_version
        if reading is not UNSET:
            field_dict["reading"] = reading

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aligned_part import AlignedPart
        from ..models.score_breakdown import ScoreBreakdown

        d = dict(src_dict)
        entity_id = d.pop("entity_id")

        entity_name = d.pop("entity_name")

        fingerprint = d.pop("fingerprint")

        list_ = d.pop("list")

        score = d.pop("score")

        score_breakdown = ScoreBreakdown.from_dict(d.pop("score_breakdown"))

        topic = EntryTopic(d.pop("topic"))

        _aligned = d.pop("aligned", UNSET)
        aligned: list[AlignedPart] | Unset = UNSET
        if _aligned is not UNSET:
            aligned = []
            for aligned_item_data in _aligned:
                aligned_item = AlignedPart.from_dict(aligned_item_data)

                aligned.append(aligned_item)

        def _parse_list_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        list_version = _parse_list_version(d.pop("list_version", UNSET))

        def _parse_reading(data: object) -> NameReading | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reading_type_0 = NameReading(data)

                return reading_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NameReading | None | Unset, data)

        reading = _parse_reading(d.pop("reading", UNSET))

        case_match = cls(
            entity_id=entity_id,
            entity_name=entity_name,
            fingerprint=fingerprint,
            list_=list_,
            score=score,
            score_breakdown=score_breakdown,
            topic=topic,
            aligned=aligned,
            list_version=list_version,
            reading=reading,
        )

        case_match.additional_properties = d
        return case_match

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
