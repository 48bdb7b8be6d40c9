from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RegisterIdentity")


@_attrs_define
class RegisterIdentity:
    """Who is checked: the fields the tenant's registers need for the purpose.

    Attributes:
        birth_place (None | str | Unset): CRUKS without a BSN
        bsn (None | str | Unset): CRUKS: 9 digits passing the 11-test
        cpr (None | str | Unset): ROFUS: `DDMMYYNNNN` or `DDMMYY-NNNN`
        date_of_birth (None | str | Unset): `YYYY-MM-DD`
        email (None | str | Unset):
        first_name (None | str | Unset):
        last_name (None | str | Unset):
        personnummer (None | str | Unset): Spelpaus: `YYYYMMDDNNNC` or `YYYYMMDD-NNNC`; its check digit is checked
            before any register is asked
        phone (None | str | Unset): international, or national in the tenant's jurisdiction
        postcode (None | str | Unset):
    """

    birth_place: None | str | Unset = UNSET
    bsn: None | str | Unset = UNSET
    cpr: None | str | Unset = UNSET
    date_of_birth: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    personnummer: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    postcode: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        birth_place: None | str | Unset
        if isinstance(self.birth_place, Unset):
            birth_place = UNSET
        else:
            birth_place = self.birth_place

        bsn: None | str | Unset
        if isinstance(self.bsn, Unset):
            bsn = UNSET
        else:
            bsn = self.bsn

        cpr: None | str | Unset
        if isinstance(self.cpr, Unset):
            cpr = UNSET
        else:
            cpr = self.cpr

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        else:
            date_of_birth = self.date_of_birth

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        personnummer: None | str | Unset
        if isinstance(self.personnummer, Unset):
            personnummer = UNSET
        else:
            personnummer = self.personnummer

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        postcode: None | str | Unset
        if isinstance(self.postcode, Unset):
            postcode = UNSET
        else:
            postcode = self.postcode

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if birth_place is not UNSET:
            field_dict["birth_place"] = birth_place
        if bsn is not UNSET:
            field_dict["bsn"] = bsn
        if cpr is not UNSET:
            field_dict["cpr"] = cpr
        if date_of_birth is not UNSET:
            field_dict["date_of_birth"] = date_of_birth
        if email is not UNSET:
            field_dict["email"] = email
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if personnummer is not UNSET:
            field_dict["personnummer"] = personnummer
        if phone is not UNSET:
            field_dict["phone"] = phone
        if postcode is not UNSET:
            field_dict["postcode"] = postcode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_birth_place(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        birth_place = _parse_birth_place(d.pop("birth_place", UNSET))

        def _parse_bsn(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bsn = _parse_bsn(d.pop("bsn", UNSET))

        def _parse_cpr(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cpr = _parse_cpr(d.pop("cpr", UNSET))

        def _parse_date_of_birth(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("date_of_birth", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        def _parse_personnummer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        personnummer = _parse_personnummer(d.pop("personnummer", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_postcode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        postcode = _parse_postcode(d.pop("postcode", UNSET))

        register_identity = cls(
            birth_place=birth_place,
            bsn=bsn,
            cpr=cpr,
            date_of_birth=date_of_birth,
            email=email,
            first_name=first_name,
            last_name=last_name,
            personnummer=personnummer,
            phone=phone,
            postcode=postcode,
        )

        register_identity.additional_properties = d
        return register_identity

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
