from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GamingDayBody")


@_attrs_define
class GamingDayBody:
    """
    Attributes:
        cutoff (str): local time the gaming day begins, `HH:MM`
        time_zone (str): an IANA time zone such as `America/Los_Angeles`
    """

    cutoff: str
    time_zone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cutoff = self.cutoff

        time_zone = self.time_zone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cutoff": cutoff,
                "time_zone": time_zone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cutoff = d.pop("cutoff")

        time_zone = d.pop("time_zone")

        gaming_day_body = cls(
            cutoff=cutoff,
            time_zone=time_zone,
        )

        gaming_day_body.additional_properties = d
        return gaming_day_body

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
