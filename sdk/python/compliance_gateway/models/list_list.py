from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.list_version import ListVersion
    from ..models.source_coverage import SourceCoverage


T = TypeVar("T", bound="ListList")


@_attrs_define
class ListList:
    """
    Attributes:
        coverage (list[SourceCoverage]): production's required sources, each with its version and freshness (empty in
            the sandbox)
        freshness_hours (int): the freshness window, in hours
        lists (list[ListVersion]):
    """

    coverage: list[SourceCoverage]
    freshness_hours: int
    lists: list[ListVersion]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coverage = []
        for coverage_item_data in self.coverage:
            coverage_item = coverage_item_data.to_dict()
            coverage.append(coverage_item)

        freshness_hours = self.freshness_hours

        lists = []
        for lists_item_data in self.lists:
            lists_item = lists_item_data.to_dict()
            lists.append(lists_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coverage": coverage,
                "freshness_hours": freshness_hours,
                "lists": lists,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_version import ListVersion
        from ..models.source_coverage import SourceCoverage

        d = dict(src_dict)
        coverage = []
        _coverage = d.pop("coverage")
        for coverage_item_data in _coverage:
            coverage_item = SourceCoverage.from_dict(coverage_item_data)

            coverage.append(coverage_item)

        freshness_hours = d.pop("freshness_hours")

        lists = []
        _lists = d.pop("lists")
        for lists_item_data in _lists:
            lists_item = ListVersion.from_dict(lists_item_data)

            lists.append(lists_item)

        list_list = cls(
            coverage=coverage,
            freshness_hours=freshness_hours,
            lists=lists,
        )

        list_list.additional_properties = d
        return list_list

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
