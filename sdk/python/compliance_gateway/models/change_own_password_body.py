from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ChangeOwnPasswordBody")


@_attrs_define
class ChangeOwnPasswordBody:
    """
    Attributes:
        new_password (str): 12 to 128 characters, not the current password, and hard to guess
            (zxcvbn score 3 or more; else 422 `weak_password`)
        password (str): the current password (at the first sign-in, the one-time password)
    """

    new_password: str
    password: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        new_password = self.new_password

        password = self.password

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "new_password": new_password,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        new_password = d.pop("new_password")

        password = d.pop("password")

        change_own_password_body = cls(
            new_password=new_password,
            password=password,
        )

        change_own_password_body.additional_properties = d
        return change_own_password_body

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
