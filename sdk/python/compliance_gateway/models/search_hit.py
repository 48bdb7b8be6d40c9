from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.entry_topic import EntryTopic
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ofac_breakdown import OfacBreakdown
    from ..models.score_breakdown import ScoreBreakdown


T = TypeVar("T", bound="SearchHit")


@_attrs_define
class SearchHit:
    """A list entry as a search found it.

    Attributes:
        aliases (list[str]):
        dates_of_birth (list[str]):
        entity_id (str):
        name (str): the entry's name that scored best
        nationalities (list[str]):
        score (float):
        source (str):
        topic (EntryTopic): why a list entry is listed: a sanction, a PEP, or adverse media
        ofac (None | OfacBreakdown | Unset):
        primary_name (None | str | Unset):
        score_breakdown (None | ScoreBreakdown | Unset):
    """

    aliases: list[str]
    dates_of_birth: list[str]
    entity_id: str
    name: str
    nationalities: list[str]
    score: float
    source: str
    topic: EntryTopic
    ofac: None | OfacBreakdown | Unset = UNSET
    primary_name: None | str | Unset = UNSET
    score_breakdown: None | ScoreBreakdown | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ofac_breakdown import OfacBreakdown
        from ..models.score_breakdown import ScoreBreakdown

        aliases = self.aliases

        dates_of_birth = self.dates_of_birth

        entity_id = self.entity_id

        name = self.name

        nationalities = self.nationalities

        score = self.score

        source = self.source

        topic = self.topic.value

        ofac: dict[str, Any] | None | Unset
        if isinstance(self.ofac, Unset):
            ofac = UNSET
        elif isinstance(self.ofac, OfacBreakdown):
            ofac = self.ofac.to_dict()
        else:
            ofac = self.ofac

        primary_name: None | str | Unset
        if isinstance(self.primary_name, Unset):
            primary_name = UNSET
        else:
            primary_name = self.primary_name

        score_breakdown: dict[str, Any] | None | Unset
        if isinstance(self.score_breakdown, Unset):
            score_breakdown = UNSET
        elif isinstance(self.score_breakdown, ScoreBreakdown):
            score_breakdown = self.score_breakdown.to_dict()
        else:
            score_breakdown = self.score_breakdown

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aliases": aliases,
                "dates_of_birth": dates_of_birth,
                "entity_id": entity_id,
                "name": name,
                "nationalities": nationalities,
                "score": score,
                "source": source,
                "topic": topic,
            }
        )
        if ofac is not UNSET:
            field_dict["ofac"] = ofac
        if primary_name is not UNSET:
            field_dict["primary_name"] = primary_name
        if score_breakdown is not UNSET:
            field_dict["score_breakdown"] = score_breakdown

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ofac_breakdown import OfacBreakdown
        from ..models.score_breakdown import ScoreBreakdown

        d = dict(src_dict)
        aliases = cast(list[str], d.pop("aliases"))

        dates_of_birth = cast(list[str], d.pop("dates_of_birth"))

        entity_id = d.pop("entity_id")

        name = d.pop("name")

        nationalities = cast(list[str], d.pop("nationalities"))

        score = d.pop("score")

        source = d.pop("source")

        topic = EntryTopic(d.pop("topic"))

        def _parse_ofac(data: object) -> None | OfacBreakdown | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ofac_type_0 = OfacBreakdown.from_dict(data)

                return ofac_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OfacBreakdown | Unset, data)

        ofac = _parse_ofac(d.pop("ofac", UNSET))

        def _parse_primary_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        primary_name = _parse_primary_name(d.pop("primary_name", UNSET))

        def _parse_score_breakdown(data: object) -> None | ScoreBreakdown | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                score_breakdown_type_0 = ScoreBreakdown.from_dict(data)

                return score_breakdown_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScoreBreakdown | Unset, data)

        score_breakdown = _parse_score_breakdown(d.pop("score_breakdown", UNSET))

        search_hit = cls(
            aliases=aliases,
            dates_of_birth=dates_of_birth,
            entity_id=entity_id,
            name=name,
            nationalities=nationalities,
            score=score,
            source=source,
            topic=topic,
            ofac=ofac,
            primary_name=primary_name,
            score_breakdown=score_breakdown,
        )

        search_hit.additional_properties = d
        return search_hit

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
