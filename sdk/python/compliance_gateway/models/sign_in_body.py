from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SignInBody")


@_attrs_define
class SignInBody:
    """`POST /v1/admin/sessions`: a person signs in with their e-mail address,
    password and TOTP code, and receives a session token.
    The body's schema; the handler reads it field by field, for field-precise errors.

        Attributes:
            email (str):
            environment (str): `sandbox` or `production`
            password (str):
            totp (str): the six digits of the authenticator app
            device_token (None | str | Unset): the `device_token` an earlier sign-in from this device answered, if any
    """

    email: str
    environment: str
    password: str
    totp: str
    device_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        environment = self.environment

        password = self.password

        totp = self.totp

        device_token: None | str | Unset
        if isinstance(self.device_token, Unset):
            device_token = UNSET
        else:
            device_token = self.device_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "environment": environment,
                "password": password,
                "totp": totp,
            }
        )
        if device_token is not UNSET:
            field_dict["device_token"] = device_token

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        environment = d.pop("environment")

        password = d.pop("password")

        totp = d.pop("totp")

        def _parse_device_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        device_token = _parse_device_token(d.pop("device_token", UNSET))

        sign_in_body = cls(
            email=email,
            environment=environment,
            password=password,
            totp=totp,
            device_token=device_token,
        )

        sign_in_body.additional_properties = d
        return sign_in_body

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
