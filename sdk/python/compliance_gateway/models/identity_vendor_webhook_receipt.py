from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_status import KycStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="IdentityVendorWebhookReceipt")


@_attrs_define
class IdentityVendorWebhookReceipt:
    """What the gateway did with a vendor webhook.

    Attributes:
        applied (bool):
        received (bool):
        kyc_check_id (str | Unset):
        status (KycStatus | Unset): a verification check's status
        type_ (str | Unset): the webhook's type, when it was ignored
    """

    applied: bool
    received: bool
    kyc_check_id: str | Unset = UNSET
    status: KycStatus | Unset = UNSET
    type_: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        applied = self.applied

        received = self.received

        kyc_check_id = self.kyc_check_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applied": applied,
                "received": received,
            }
        )
        if kyc_check_id is not UNSET:
            field_dict["kyc_check_id"] = kyc_check_id
        if status is not UNSET:
            field_dict["status"] = status
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        applied = d.pop("applied")

        received = d.pop("received")

        kyc_check_id = d.pop("kyc_check_id", UNSET)

        _status = d.pop("status", UNSET)
        status: KycStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = KycStatus(_status)

        type_ = d.pop("type", UNSET)

        identity_vendor_webhook_receipt = cls(
            applied=applied,
            received=received,
            kyc_check_id=kyc_check_id,
            status=status,
            type_=type_,
        )

        identity_vendor_webhook_receipt.additional_properties = d
        return identity_vendor_webhook_receipt

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
