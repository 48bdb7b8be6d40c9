from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filing_address import FilingAddress


T = TypeVar("T", bound="FilingSubject")


@_attrs_define
class FilingSubject:
    """The subject's identity, supplied by the officer for this filing only;
    names and date of birth the officer leaves out come from the player's
    screening. Every field the format needs and neither gives is named in
    the draft's `errors`.

        Attributes:
            address (FilingAddress | Unset): An address as the officer or the settings give it.
            date_of_birth (None | str | Unset): `YYYY-MM-DD`
            first_name (None | str | Unset):
            id_country (None | str | Unset): the issuing country, ISO 3166-1 alpha-2
            id_number (None | str | Unset):
            id_type (None | str | Unset): `ssn`, `itin`, `drivers_license`, `state_id`, `passport`, `alien_registration`,
                `foreign_id` or `national_id`
            last_name (None | str | Unset):
            occupation (None | str | Unset):
    """

    address: FilingAddress | Unset = UNSET
    date_of_birth: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    id_country: None | str | Unset = UNSET
    id_number: None | str | Unset = UNSET
    id_type: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    occupation: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        address: dict[str, Any] | Unset = UNSET
        if not isinstance(self.address, Unset):
            address = self.address.to_dict()

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        else:
            date_of_birth = self.date_of_birth

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        id_country: None | str | Unset
        if isinstance(self.id_country, Unset):
            id_country = UNSET
        else:
            id_country = self.id_country

        id_number: None | str | Unset
        if isinstance(self.id_number, Unset):
            id_number = UNSET
        else:
            id_number = self.id_number

        id_type: None | str | Unset
        if isinstance(self.id_type, Unset):
            id_type = UNSET
        else:
            id_type = self.id_type

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        occupation: None | str | Unset
        if isinstance(self.occupation, Unset):
            occupation = UNSET
        else:
            occupation = self.occupation

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if address is not UNSET:
            field_dict["address"] = address
        if date_of_birth is not UNSET:
            field_dict["date_of_birth"] = date_of_birth
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if id_country is not UNSET:
            field_dict["id_country"] = id_country
        if id_number is not UNSET:
            field_dict["id_number"] = id_number
        if id_type is not UNSET:
            field_dict["id_type"] = id_type
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if occupation is not UNSET:
            field_dict["occupation"] = occupation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_address import FilingAddress

        d = dict(src_dict)
        _address = d.pop("address", UNSET)
        address: FilingAddress | Unset
        if isinstance(_address, Unset):
            address = UNSET
        else:
            address = FilingAddress.from_dict(_address)

        def _parse_date_of_birth(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("date_of_birth", UNSET))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_id_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id_country = _parse_id_country(d.pop("id_country", UNSET))

        def _parse_id_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id_number = _parse_id_number(d.pop("id_number", UNSET))

        def _parse_id_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id_type = _parse_id_type(d.pop("id_type", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        def _parse_occupation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        occupation = _parse_occupation(d.pop("occupation", UNSET))

        filing_subject = cls(
            address=address,
            date_of_birth=date_of_birth,
            first_name=first_name,
            id_country=id_country,
            id_number=id_number,
            id_type=id_type,
            last_name=last_name,
            occupation=occupation,
        )

        return filing_subject
