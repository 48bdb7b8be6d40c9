from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccessExportRegisterCheck")


@_attrs_define
class AccessExportRegisterCheck:
    """
    Attributes:
        checked_at (str):
        purpose (str):
        register (str):
        status (str):
        reference (None | str | Unset): the register's own reference
    """

    checked_at: str
    purpose: str
    register: str
    status: str
    reference: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_at = self.checked_at

        purpose = self.purpose

        register = self.register

        status = self.status

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_at": checked_at,
                "purpose": purpose,
                "register": register,
                "status": status,
            }
        )
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        checked_at = d.pop("checked_at")

        purpose = d.pop("purpose")

        register = d.pop("register")

        status = d.pop("status")

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        access_export_register_check = cls(
            checked_at=checked_at,
            purpose=purpose,
            register=register,
            status=status,
            reference=reference,
        )

        access_export_register_check.additional_properties = d
        return access_export_register_check

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
