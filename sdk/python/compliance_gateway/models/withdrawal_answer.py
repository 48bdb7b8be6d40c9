from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_document import KycDocument
from ..models.kyc_status import KycStatus
from ..models.tier import Tier
from ..types import UNSET, Unset

T = TypeVar("T", bound="WithdrawalAnswer")


@_attrs_define
class WithdrawalAnswer:
    """The withdrawal gate's answer; stored and answered again on a repeat.

    Attributes:
        kyc_check_id (None | str): the verification check, when one is needed
        required_documents (list[KycDocument]):
        required_tier (Tier): a KYC tier, keyed to lifetime withdrawals
        user_id (str):
        withdrawal_held (bool):
        client_withdrawal_id (None | str | Unset): the operator's id of the withdrawal, as sent
        estimated_clear_time (str | Unset):
        message (str | Unset):
        status (KycStatus | Unset): a verification check's status
        vendor_access_token (str | Unset): for the vendor's verification flow on the player's device
        vendor_expires_in (int | Unset):
        withdrawal_id (str | Unset):
        withdrawal_remaining_cents (int | None | Unset): what stays withdrawable under the covering tier; `null` when
            unbounded
    """

    kyc_check_id: None | str
    required_documents: list[KycDocument]
    required_tier: Tier
    user_id: str
    withdrawal_held: bool
    client_withdrawal_id: None | str | Unset = UNSET
    estimated_clear_time: str | Unset = UNSET
    message: str | Unset = UNSET
    status: KycStatus | Unset = UNSET
    vendor_access_token: str | Unset = UNSET
    vendor_expires_in: int | Unset = UNSET
    withdrawal_id: str | Unset = UNSET
    withdrawal_remaining_cents: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id: None | str
        kyc_check_id = self.kyc_check_id

        required_documents = []
        for required_documents_item_data in self.required_documents:
            required_documents_item = required_documents_item_data.value
            required_documents.append(required_documents_item)

        required_tier = self.required_tier.value

        user_id = self.user_id

        withdrawal_held = self.withdrawal_held

        client_withdrawal_id: None | str | Unset
        if isinstance(self.client_withdrawal_id, Unset):
            client_withdrawal_id = UNSET
        else:
            client_withdrawal_id = self.client_withdrawal_id

        estimated_clear_time = self.estimated_clear_time

        message = self.message

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        vendor_access_token = self.vendor_access_token

        vendor_expires_in = self.vendor_expires_in

        withdrawal_id = self.withdrawal_id

        withdrawal_remaining_cents: int | None | Unset
        if isinstance(self.withdrawal_remaining_cents, Unset):
            withdrawal_remaining_cents = UNSET
        else:
            withdrawal_remaining_cents = self.withdrawal_remaining_cents

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "required_documents": required_documents,
                "required_tier": required_tier,
                "user_id": user_id,
                "withdrawal_held": withdrawal_held,
            }
        )
        if client_withdrawal_id is not UNSET:
            field_dict["client_withdrawal_id"] = client_withdrawal_id
        if estimated_clear_time is not UNSET:
            field_dict["estimated_clear_time"] = estimated_clear_time
        if message is not UNSET:
            field_dict["message"] = message
        if status is not UNSET:
            field_dict["status"] = status
        if vendor_access_token is not UNSET:
            field_dict["vendor_access_token"] = vendor_access_token
        if vendor_expires_in is not UNSET:
            field_dict["vendor_expires_in"] = vendor_expires_in
        if withdrawal_id is not UNSET:
            field_dict["withdrawal_id"] = withdrawal_id
        if withdrawal_remaining_cents is not UNSET:
            field_dict["withdrawal_remaining_cents"] = withdrawal_remaining_cents

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kyc_check_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kyc_check_id = _parse_kyc_check_id(d.pop("kyc_check_id"))

        required_documents = []
        _required_documents = d.pop("required_documents")
        for required_documents_item_data in _required_documents:
            required_documents_item = KycDocument(required_documents_item_data)

            required_documents.append(required_documents_item)

        required_tier = Tier(d.pop("required_tier"))

        user_id = d.pop("user_id")

        withdrawal_held = d.pop("withdrawal_held")

        def _parse_client_withdrawal_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_withdrawal_id = _parse_client_withdrawal_id(
            d.pop("client_withdrawal_id", UNSET)
        )

        estimated_clear_time = d.pop("estimated_clear_time", UNSET)

        message = d.pop("message", UNSET)

        _status = d.pop("status", UNSET)
        status: KycStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = KycStatus(_status)

        vendor_access_token = d.pop("vendor_access_token", UNSET)

        vendor_expires_in = d.pop("vendor_expires_in", UNSET)

        withdrawal_id = d.pop("withdrawal_id", UNSET)

        def _parse_withdrawal_remaining_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        withdrawal_remaining_cents = _parse_withdrawal_remaining_cents(
            d.pop("withdrawal_remaining_cents", UNSET)
        )

        withdrawal_answer = cls(
            kyc_check_id=kyc_check_id,
            required_documents=required_documents,
            required_tier=required_tier,
            user_id=user_id,
            withdrawal_held=withdrawal_held,
            client_withdrawal_id=client_withdrawal_id,
            estimated_clear_time=estimated_clear_time,
            message=message,
            status=status,
            vendor_access_token=vendor_access_token,
            vendor_expires_in=vendor_expires_in,
            withdrawal_id=withdrawal_id,
            withdrawal_remaining_cents=withdrawal_remaining_cents,
        )

        withdrawal_answer.additional_properties = d
        return withdrawal_answer

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
