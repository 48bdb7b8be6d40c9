from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ListsCheck")


@_attrs_define
class ListsCheck:
    """The production lists check: which required sources are missing or stale.

    Attributes:
        missing (list[str]): required sources with no active version
        ok (bool):
        stale (list[str]): required sources not refreshed within the freshness window
    """

    missing: list[str]
    ok: bool
    stale: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        missing = self.missing

        ok = self.ok

        stale = self.stale

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "missing": missing,
                "ok": ok,
                "stale": stale,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        missing = cast(list[str], d.pop("missing"))

        ok = d.pop("ok")

        stale = cast(list[str], d.pop("stale"))

        lists_check = cls(
            missing=missing,
            ok=ok,
            stale=stale,
        )

        lists_check.additional_properties = d
        return lists_check

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
