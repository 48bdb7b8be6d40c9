from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScreeningSwitches")


@_attrs_define
class ScreeningSwitches:
    """Which topics beyond sanctions a tenant screens for. A PEP or an
    adverse-media match opens a due-diligence case and holds nothing.

        Attributes:
            adverse_media (bool):  Default: False.
            pep (bool):  Default: False.
    """

    adverse_media: bool = False
    pep: bool = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adverse_media = self.adverse_media

        pep = self.pep

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "adverse_media": adverse_media,
                "pep": pep,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        adverse_media = d.pop("adverse_media")

        pep = d.pop("pep")

        screening_switches = cls(
            adverse_media=adverse_media,
            pep=pep,
        )

        screening_switches.additional_properties = d
        return screening_switches

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
