from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_event_type_name import AmlEventTypeName
from ..models.currency import Currency
from ..models.payment_method_name import PaymentMethodName
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReportAmlEventBody")


@_attrs_define
class ReportAmlEventBody:
    """The body of `POST /v1/aml/event`; stored as the event, with `occurred_at` normalised.

    Attributes:
        event_type (AmlEventTypeName):
        transaction_id (str):
        user_id (str):
        amount_cents (int | None | Unset):
        counterparty_user_id (None | str | Unset): the receiving user of a `p2p_transfer`, required for one
        currency (Currency | None | Unset):
        instrument_id (None | str | Unset): an opaque identifier of the payment instrument (a card fingerprint, a wallet
            id); stored only as its SHA-256
        occurred_at (datetime.datetime | None | Unset):
        payment_method (None | PaymentMethodName | Unset):
    """

    event_type: AmlEventTypeName
    transaction_id: str
    user_id: str
    amount_cents: int | None | Unset = UNSET
    counterparty_user_id: None | str | Unset = UNSET
    currency: Currency | None | Unset = UNSET
    instrument_id: None | str | Unset = UNSET
    occurred_at: datetime.datetime | None | Unset = UNSET
    payment_method: None | PaymentMethodName | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_type = self.event_type.value

        transaction_id = self.transaction_id

        user_id = self.user_id

        amount_cents: int | None | Unset
        if isinstance(self.amount_cents, Unset):
            amount_cents = UNSET
        else:
            amount_cents = self.amount_cents

        counterparty_user_id: None | str | Unset
        if isinstance(self.counterparty_user_id, Unset):
            counterparty_user_id = UNSET
        else:
            counterparty_user_id = self.counterparty_user_id

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        elif isinstance(self.currency, Currency):
            currency = self.currency.value
        else:
            currency = self.currency

        instrument_id: None | str | Unset
        if isinstance(self.instrument_id, Unset):
            instrument_id = UNSET
        else:
            instrument_id = self.instrument_id

        occurred_at: None | str | Unset
        if isinstance(self.occurred_at, Unset):
            occurred_at = UNSET
        elif isinstance(self.occurred_at, datetime.datetime):
            occurred_at = self.occurred_at.isoformat()
        else:
            occurred_at = self.occurred_at

        payment_method: None | str | Unset
        if isinstance(self.payment_method, Unset):
            payment_method = UNSET
        elif isinstance(self.payment_method, PaymentMethodName):
            payment_method = self.payment_method.value
        else:
            payment_method = self.payment_method

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_type": event_type,
                "transaction_id": transaction_id,
                "user_id": user_id,
            }
        )
        if amount_cents is not UNSET:
            field_dict["amount_cents"] = amount_cents
        if counterparty_user_id is not UNSET:
            field_dict["counterparty_user_id"] = counterparty_user_id
        if currency is not UNSET:
            field_dict["currency"] = currency
        if instrument_id is not UNSET:
            field_dict["instrument_id"] = instrument_id
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at
        if payment_method is not UNSET:
            field_dict["payment_method"] = payment_method

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_type = AmlEventTypeName(d.pop("event_type"))

        transaction_id = d.pop("transaction_id")

        user_id = d.pop("user_id")

        def _parse_amount_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        amount_cents = _parse_amount_cents(d.pop("amount_cents", UNSET))

        def _parse_counterparty_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        counterparty_user_id = _parse_counterparty_user_id(
            d.pop("counterparty_user_id", UNSET)
        )

        def _parse_currency(data: object) -> Currency | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_0 = Currency(data)

                return currency_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Currency | None | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_instrument_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        instrument_id = _parse_instrument_id(d.pop("instrument_id", UNSET))

        def _parse_occurred_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                occurred_at_type_0 = datetime.datetime.fromisoformat(data)

                return occurred_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        occurred_at = _parse_occurred_at(d.pop("occurred_at", UNSET))

        def _parse_payment_method(data: object) -> None | PaymentMethodName | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payment_method_type_0 = PaymentMethodName(data)

                return payment_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PaymentMethodName | Unset, data)

        payment_method = _parse_payment_method(d.pop("payment_method", UNSET))

        report_aml_event_body = cls(
            event_type=event_type,
            transaction_id=transaction_id,
            user_id=user_id,
            amount_cents=amount_cents,
            counterparty_user_id=counterparty_user_id,
            currency=currency,
            instrument_id=instrument_id,
            occurred_at=occurred_at,
            payment_method=payment_method,
        )

        report_aml_event_body.additional_properties = d
        return report_aml_event_body

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
