from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.search_mode import SearchMode

if TYPE_CHECKING:
    from ..models.search_hit import SearchHit


T = TypeVar("T", bound="SearchResults")


@_attrs_define
class SearchResults:
    """
    Attributes:
        mode (SearchMode): How a search scores.
        results (list[SearchHit]):
    """

    mode: SearchMode
    results: list[SearchHit]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mode": mode,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_hit import SearchHit

        d = dict(src_dict)
        mode = SearchMode(d.pop("mode"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = SearchHit.from_dict(results_item_data)

            results.append(results_item)

        search_results = cls(
            mode=mode,
            results=results,
        )

        search_results.additional_properties = d
        return search_results

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
