from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RegisterView")


@_attrs_define
class RegisterView:
    """A register as read back: everything but the credentials.

    Attributes:
        base_url (str):
        credentials_set (bool): the credentials are held (sealed); they are never answered
        on_outage (str):
        purposes (list[str]):
        register (str):
    """

    base_url: str
    credentials_set: bool
    on_outage: str
    purposes: list[str]
    register: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        credentials_set = self.credentials_set

        on_outage = self.on_outage

        purposes = self.purposes

        register = self.register

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "base_url": base_url,
                "credentials_set": credentials_set,
                "on_outage": on_outage,
                "purposes": purposes,
                "register": register,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        base_url = d.pop("base_url")

        credentials_set = d.pop("credentials_set")

        on_outage = d.pop("on_outage")

        purposes = cast(list[str], d.pop("purposes"))

        register = d.pop("register")

        register_view = cls(
            base_url=base_url,
            credentials_set=credentials_set,
            on_outage=on_outage,
            purposes=purposes,
            register=register,
        )

        register_view.additional_properties = d
        return register_view

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
