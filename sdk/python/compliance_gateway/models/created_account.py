from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CreatedAccount")


@_attrs_define
class CreatedAccount:
    """What `compliance-gateway console-user create` prints and
    `POST /v1/admin/people` answers: shown once, never stored in clear.

        Attributes:
            email (str):
            password (str): to be changed at the first sign-in
            role (str): `reviewer`, `approver`, `supervisor` or `admin`
            totp_secret (str): base32 (RFC 4648, no padding), for an authenticator app
            user_id (str): the person's id (`per_…`)
    """

    email: str
    password: str
    role: str
    totp_secret: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        role = self.role

        totp_secret = self.totp_secret

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "password": password,
                "role": role,
                "totp_secret": totp_secret,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        role = d.pop("role")

        totp_secret = d.pop("totp_secret")

        user_id = d.pop("user_id")

        created_account = cls(
            email=email,
            password=password,
            role=role,
            totp_secret=totp_secret,
            user_id=user_id,
        )

        created_account.additional_properties = d
        return created_account

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
