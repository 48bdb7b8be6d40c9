from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OfacBreakdown")


@_attrs_define
class OfacBreakdown:
    """How OFAC's own search would score the entry.

    Attributes:
        score (int): 0 to 100, as OFAC's slider reads
        whole_name (float): the whole-name technique (0 to 1; zero when the names begin with different letters)
        word_by_word (float): the word-by-word technique (0 to 1)
    """

    score: int
    whole_name: float
    word_by_word: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        score = self.score

        whole_name = self.whole_name

        word_by_word = self.word_by_word

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "score": score,
                "whole_name": whole_name,
                "word_by_word": word_by_word,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        score = d.pop("score")

        whole_name = d.pop("whole_name")

        word_by_word = d.pop("word_by_word")

        ofac_breakdown = cls(
            score=score,
            whole_name=whole_name,
            word_by_word=word_by_word,
        )

        ofac_breakdown.additional_properties = d
        return ofac_breakdown

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
