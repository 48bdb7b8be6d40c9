from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.filing_address import FilingAddress


T = TypeVar("T", bound="FincenSettings")


@_attrs_define
class FincenSettings:
    """The FinCEN filer: transmitter, filing institution and contact.

    Attributes:
        address (FilingAddress): An address as the officer or the settings give it.
        casino_type (str): `state_licensed` (101), `tribal` (102) or `card_club` (103)
        contact_name (str):
        contact_phone (str):
        ein (str): the Employer Identification Number, nine digits
        legal_name (str):
        tcc (str): the Transmitter Control Code FinCEN issued, eight characters
    """

    address: FilingAddress
    casino_type: str
    contact_name: str
    contact_phone: str
    ein: str
    legal_name: str
    tcc: str

    def to_dict(self) -> dict[str, Any]:
        address = self.address.to_dict()

        casino_type = self.casino_type

        contact_name = self.contact_name

        contact_phone = self.contact_phone

        ein = self.ein

        legal_name = self.legal_name

        tcc = self.tcc

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
                "casino_type": casino_type,
                "contact_name": contact_name,
                "contact_phone": contact_phone,
                "ein": ein,
                "legal_name": legal_name,
                "tcc": tcc,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_address import FilingAddress

        d = dict(src_dict)
        address = FilingAddress.from_dict(d.pop("address"))

        casino_type = d.pop("casino_type")

        contact_name = d.pop("contact_name")

        contact_phone = d.pop("contact_phone")

        ein = d.pop("ein")

        legal_name = d.pop("legal_name")

        tcc = d.pop("tcc")

        fincen_settings = cls(
            address=address,
            casino_type=casino_type,
            contact_name=contact_name,
            contact_phone=contact_phone,
            ein=ein,
            legal_name=legal_name,
            tcc=tcc,
        )

        return fincen_settings
