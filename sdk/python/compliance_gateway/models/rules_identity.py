from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.jurisdiction_profile import JurisdictionProfile


T = TypeVar("T", bound="RulesIdentity")


@_attrs_define
class RulesIdentity:
    """Which rules decide.

    Attributes:
        component_sha256 (str):
        jurisdictions (list[JurisdictionProfile]): every jurisdiction profile the component holds, with its parameters
        version (str):
        wit_package (str):
    """

    component_sha256: str
    jurisdictions: list[JurisdictionProfile]
    version: str
    wit_package: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        component_sha256 = self.component_sha256

        jurisdictions = []
        for jurisdictions_item_data in self.jurisdictions:
            jurisdictions_item = jurisdictions_item_data.to_dict()
            jurisdictions.append(jurisdictions_item)

        version = self.version

        wit_package = self.wit_package

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "component_sha256": component_sha256,
                "jurisdictions": jurisdictions,
                "version": version,
                "wit_package": wit_package,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.jurisdiction_profile import JurisdictionProfile

        d = dict(src_dict)
        component_sha256 = d.pop("component_sha256")

        jurisdictions = []
        _jurisdictions = d.pop("jurisdictions")
        for jurisdictions_item_data in _jurisdictions:
            jurisdictions_item = JurisdictionProfile.from_dict(jurisdictions_item_data)

            jurisdictions.append(jurisdictions_item)

        version = d.pop("version")

        wit_package = d.pop("wit_package")

        rules_identity = cls(
            component_sha256=component_sha256,
            jurisdictions=jurisdictions,
            version=version,
            wit_package=wit_package,
        )

        rules_identity.additional_properties = d
        return rules_identity

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
