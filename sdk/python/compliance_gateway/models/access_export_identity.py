from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccessExportIdentity")


@_attrs_define
class AccessExportIdentity:
    """Who the player is, as the operator gave it.

    Attributes:
        created_at (str):
        email (str):
        first_name (str):
        last_name (str):
        closed_at (None | str | Unset): when the business relationship ended, if it has
        date_of_birth (None | str | Unset):
        kyc_email (None | str | Unset): the contacts the identity check was given
        kyc_phone (None | str | Unset):
        nationality (None | str | Unset):
    """

    created_at: str
    email: str
    first_name: str
    last_name: str
    closed_at: None | str | Unset = UNSET
    date_of_birth: None | str | Unset = UNSET
    kyc_email: None | str | Unset = UNSET
    kyc_phone: None | str | Unset = UNSET
    nationality: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        email = self.email

        first_name = self.first_name

        last_name = self.last_name

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        else:
            closed_at = self.closed_at

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        else:
            date_of_birth = self.date_of_birth

        kyc_email: None | str | Unset
        if isinstance(self.kyc_email, Unset):
            kyc_email = UNSET
        else:
            kyc_email = self.kyc_email

        kyc_phone: None | str | Unset
        if isinstance(self.kyc_phone, Unset):
            kyc_phone = UNSET
        else:
            kyc_phone = self.kyc_phone

        nationality: None | str | Unset
        if isinstance(self.nationality, Unset):
            nationality = UNSET
        else:
            nationality = self.nationality

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "email": email,
                "first_name": first_name,
                "last_name": last_name,
            }
        )
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at
        if date_of_birth is not UNSET:
            field_dict["date_of_birth"] = date_of_birth
        if kyc_email is not UNSET:
            field_dict["kyc_email"] = kyc_email
        if kyc_phone is not UNSET:
            field_dict["kyc_phone"] = kyc_phone
        if nationality is not UNSET:
            field_dict["nationality"] = nationality

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        email = d.pop("email")

        first_name = d.pop("first_name")

        last_name = d.pop("last_name")

        def _parse_closed_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        closed_at = _parse_closed_at(d.pop("closed_at", UNSET))

        def _parse_date_of_birth(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("date_of_birth", UNSET))

        def _parse_kyc_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kyc_email = _parse_kyc_email(d.pop("kyc_email", UNSET))

        def _parse_kyc_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kyc_phone = _parse_kyc_phone(d.pop("kyc_phone", UNSET))

        def _parse_nationality(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        nationality = _parse_nationality(d.pop("nationality", UNSET))

        access_export_identity = cls(
            created_at=created_at,
            email=email,
            first_name=first_name,
            last_name=last_name,
            closed_at=closed_at,
            date_of_birth=date_of_birth,
            kyc_email=kyc_email,
            kyc_phone=kyc_phone,
            nationality=nationality,
        )

        access_export_identity.additional_properties = d
        return access_export_identity

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
