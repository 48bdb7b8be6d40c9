from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_state import AccountState
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedAccount")


@_attrs_define
class CreatedAccount:
    """What `compliance-gateway console-user create` prints and
    `POST /v1/admin/people` answers: shown once, never stored in clear.

        Attributes:
            email (str):
            role (str): `reviewer`, `approver`, `supervisor` or `admin`
            state (AccountState): Where a console account stands: made, disabled or enabled.
            user_id (str): the person's id (`per_…`)
            oidc_subject (None | str | Unset): the identity provider's subject the account is linked to
            password (None | str | Unset): to be changed at the first sign-in; none for an account that signs in through the
                identity provider
            totp_secret (None | str | Unset): base32 (RFC 4648, no padding), for an authenticator app; none for an account
                of the identity provider
    """

    email: str
    role: str
    state: AccountState
    user_id: str
    oidc_subject: None | str | Unset = UNSET
    password: None | str | Unset = UNSET
    totp_secret: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role = self.role

        state = self.state.value

        user_id = self.user_id

        oidc_subject: None | str | Unset
        if isinstance(self.oidc_subject, Unset):
            oidc_subject = UNSET
        else:
            oidc_subject = self.oidc_subject

        password: None | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        totp_secret: None | str | Unset
        if isinstance(self.totp_secret, Unset):
            totp_secret = UNSET
        else:
            totp_secret = self.totp_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "role": role,
                "state": state,
                "user_id": user_id,
            }
        )
        if oidc_subject is not UNSET:
            field_dict["oidc_subject"] = oidc_subject
        if password is not UNSET:
            field_dict["password"] = password
        if totp_secret is not UNSET:
            field_dict["totp_secret"] = totp_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        role = d.pop("role")

        state = AccountState(d.pop("state"))

        user_id = d.pop("user_id")

        def _parse_oidc_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        oidc_subject = _parse_oidc_subject(d.pop("oidc_subject", UNSET))

        def _parse_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))

        def _parse_totp_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        totp_secret = _parse_totp_secret(d.pop("totp_secret", UNSET))

        created_account = cls(
            email=email,
            role=role,
            state=state,
            user_id=user_id,
            oidc_subject=oidc_subject,
            password=password,
            totp_secret=totp_secret,
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
