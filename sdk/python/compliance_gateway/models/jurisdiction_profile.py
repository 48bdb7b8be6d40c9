from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.jurisdiction_profile_aml import JurisdictionProfileAml
    from ..models.jurisdiction_profile_increase_cooloffs_item import (
        JurisdictionProfileIncreaseCooloffsItem,
    )


T = TypeVar("T", bound="JurisdictionProfile")


@_attrs_define
class JurisdictionProfile:
    """
    Attributes:
        aml (JurisdictionProfileAml): the AML monitoring parameters: thresholds in minor units of `currency`, windows in
            seconds, percentages, the CDD tier and the filing deadlines (see `decide-aml`)
        increase_cooloffs (list[JurisdictionProfileIncreaseCooloffsItem]): a limit increase up to `up_to_multiple` times
            the limit in force (every increase when null) waits `cooloff_seconds`; decreases take effect at once
        name (str):
        regulator (str):
    """

    aml: JurisdictionProfileAml
    increase_cooloffs: list[JurisdictionProfileIncreaseCooloffsItem]
    name: str
    regulator: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aml = self.aml.to_dict()

        increase_cooloffs = []
        for increase_cooloffs_item_data in self.increase_cooloffs:
            increase_cooloffs_item = increase_cooloffs_item_data.to_dict()
            increase_cooloffs.append(increase_cooloffs_item)

        name = self.name

        regulator = self.regulator

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aml": aml,
                "increase_cooloffs": increase_cooloffs,
                "name": name,
                "regulator": regulator,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.jurisdiction_profile_aml import JurisdictionProfileAml
        from ..models.jurisdiction_profile_increase_cooloffs_item import (
            JurisdictionProfileIncreaseCooloffsItem,
        )

        d = dict(src_dict)
        aml = JurisdictionProfileAml.from_dict(d.pop("aml"))

        increase_cooloffs = []
        _increase_cooloffs = d.pop("increase_cooloffs")
        for increase_cooloffs_item_data in _increase_cooloffs:
            increase_cooloffs_item = JurisdictionProfileIncreaseCooloffsItem.from_dict(
                increase_cooloffs_item_data
            )

            increase_cooloffs.append(increase_cooloffs_item)

        name = d.pop("name")

        regulator = d.pop("regulator")

        jurisdiction_profile = cls(
            aml=aml,
            increase_cooloffs=increase_cooloffs,
            name=name,
            regulator=regulator,
        )

        jurisdiction_profile.additional_properties = d
        return jurisdiction_profile

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
