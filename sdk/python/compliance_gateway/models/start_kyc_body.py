from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency import Currency
from ..types import UNSET, Unset

T = TypeVar("T", bound="StartKycBody")


@_attrs_define
class StartKycBody:
    """A withdrawal request as the operator sent it (the body of `POST /v1/kyc/start`).

    Attributes:
        currency (Currency): an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD
            three)
        email (str): an e-mail address; compared without case, its domain in IDNA's ASCII form (Unicode and punycode
            alike), and folded by the providers' documented alias rules: Gmail's dots and `+tag` dropped and googlemail.com
            read as gmail.com, a `+tag` dropped at Fastmail and Proton; any other address compared as delivered
        phone (str): a phone number of 7 to 15 digits, with the separators space ( ) . -, read with libphonenumber's
            rules and compared as E.164: international after + or 00; without, in the national format of the tenant's
            jurisdiction (GB, SE, DE, NL, CA for CA-ON), and as international digits in the default one, where a national
            number (a leading 0) is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`
        user_id (str):
        withdrawal_amount_cents (int): a positive amount in minor currency units
        withdrawal_id (None | str | Unset): the operator's id of the withdrawal
    """

    currency: Currency
    email: str
    phone: str
    user_id: str
    withdrawal_amount_cents: int
    withdrawal_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency.value

        email = self.email

        phone = self.phone

        user_id = self.user_id

        withdrawal_amount_cents = self.withdrawal_amount_cents

        withdrawal_id: None | str | Unset
        if isinstance(self.withdrawal_id, Unset):
            withdrawal_id = UNSET
        else:
            withdrawal_id = self.withdrawal_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "email": email,
                "phone": phone,
                "user_id": user_id,
                "withdrawal_amount_cents": withdrawal_amount_cents,
            }
        )
        if withdrawal_id is not UNSET:
            field_dict["withdrawal_id"] = withdrawal_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        currency = Currency(d.pop("currency"))

        email = d.pop("email")

        phone = d.pop("phone")

        user_id = d.pop("user_id")

        withdrawal_amount_cents = d.pop("withdrawal_amount_cents")

        def _parse_withdrawal_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        withdrawal_id = _parse_withdrawal_id(d.pop("withdrawal_id", UNSET))

        start_kyc_body = cls(
            currency=currency,
            email=email,
            phone=phone,
            user_id=user_id,
            withdrawal_amount_cents=withdrawal_amount_cents,
            withdrawal_id=withdrawal_id,
        )

        start_kyc_body.additional_properties = d
        return start_kyc_body

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
