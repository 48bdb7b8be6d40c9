from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SetTenantScreeningBody")


@_attrs_define
class SetTenantScreeningBody:
    """The body of `PUT /v1/admin/tenants/{tenant_id}/screening`, and a new
    tenant's `screening`: both switches, each false when left out.

        Attributes:
            adverse_media (bool | Unset):  Default: False.
            pep (bool | Unset):  Default: False.
    """

    adverse_media: bool | Unset = False
    pep: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adverse_media = self.adverse_media

        pep = self.pep

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if adverse_media is not UNSET:
            field_dict["adverse_media"] = adverse_media
        if pep is not UNSET:
            field_dict["pep"] = pep

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        adverse_media = d.pop("adverse_media", UNSET)

        pep = d.pop("pep", UNSET)

        set_tenant_screening_body = cls(
            adverse_media=adverse_media,
            pep=pep,
        )

        set_tenant_screening_body.additional_properties = d
        return set_tenant_screening_body

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
