from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.check import Check
    from ..models.lists_check import ListsCheck


T = TypeVar("T", bound="Checks")


@_attrs_define
class Checks:
    """
    Attributes:
        lists (ListsCheck): The production lists check: which required sources are missing or stale.
        rules (Check): One check: whether it passes, and what it found.
        store (Check): One check: whether it passes, and what it found.
        webhooks (Check): One check: whether it passes, and what it found.
    """

    lists: ListsCheck
    rules: Check
    store: Check
    webhooks: Check
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lists = self.lists.to_dict()

        rules = self.rules.to_dict()

        store = self.store.to_dict()

        webhooks = self.webhooks.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lists": lists,
                "rules": rules,
                "store": store,
                "webhooks": webhooks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check import Check
        from ..models.lists_check import ListsCheck

        d = dict(src_dict)
        lists = ListsCheck.from_dict(d.pop("lists"))

        rules = Check.from_dict(d.pop("rules"))

        store = Check.from_dict(d.pop("store"))

        webhooks = Check.from_dict(d.pop("webhooks"))

        checks = cls(
            lists=lists,
            rules=rules,
            store=store,
            webhooks=webhooks,
        )

        checks.additional_properties = d
        return checks

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
