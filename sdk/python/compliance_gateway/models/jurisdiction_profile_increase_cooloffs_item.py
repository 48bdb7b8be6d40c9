from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="JurisdictionProfileIncreaseCooloffsItem")


@_attrs_define
class JurisdictionProfileIncreaseCooloffsItem:
    """
    Attributes:
        cooloff_seconds (int):
        up_to_multiple (int | None):
    """

    cooloff_seconds: int
    up_to_multiple: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cooloff_seconds = self.cooloff_seconds

        up_to_multiple: int | None
        up_to_multiple = self.up_to_multiple

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cooloff_seconds": cooloff_seconds,
                "up_to_multiple": up_to_multiple,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cooloff_seconds = d.pop("cooloff_seconds")

        def _parse_up_to_multiple(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        up_to_multiple = _parse_up_to_multiple(d.pop("up_to_multiple"))

        jurisdiction_profile_increase_cooloffs_item = cls(
            cooloff_seconds=cooloff_seconds,
            up_to_multiple=up_to_multiple,
        )

        jurisdiction_profile_increase_cooloffs_item.additional_properties = d
        return jurisdiction_profile_increase_cooloffs_item

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
