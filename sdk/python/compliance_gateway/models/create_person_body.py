from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePersonBody")


@_attrs_define
class CreatePersonBody:
    """`POST /v1/admin/people`: a console account made through the API, as
    `console-user create` makes one on the command line (the edge has none).

        Attributes:
            email (str): the person's e-mail address: the sign-in name, unique in the environment
            role (str): `reviewer`, `approver`, `supervisor` or `admin`
            oidc_subject (None | str | Unset): the identity provider's subject (`sub`) of the person: the account then signs
                in there only, and no password
                or code is made (no one is shown one)
    """

    email: str
    role: str
    oidc_subject: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role = self.role

        oidc_subject: None | str | Unset
        if isinstance(self.oidc_subject, Unset):
            oidc_subject = UNSET
        else:
            oidc_subject = self.oidc_subject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "role": role,
            }
        )
        if oidc_subject is not UNSET:
            field_dict["oidc_subject"] = oidc_subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        role = d.pop("role")

        def _parse_oidc_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        oidc_subject = _parse_oidc_subject(d.pop("oidc_subject", UNSET))

        create_person_body = cls(
            email=email,
            role=role,
            oidc_subject=oidc_subject,
        )

        create_person_body.additional_properties = d
        return create_person_body

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
