from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_status import KycStatus

T = TypeVar("T", bound="KycToken")


@_attrs_define
class KycToken:
    """A fresh token for the vendor's verification flow.

    Attributes:
        expires_at (datetime.datetime | None):
        kyc_check_id (str):
        status (KycStatus): a verification check's status
        vendor_access_token (str): for the vendor's verification flow on the player's device
        vendor_expires_in (int): seconds until the token expires
    """

    expires_at: datetime.datetime | None
    kyc_check_id: str
    status: KycStatus
    vendor_access_token: str
    vendor_expires_in: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        kyc_check_id = self.kyc_check_id

        status = self.status.value

        vendor_access_token = self.vendor_access_token

        vendor_expires_in = self.vendor_expires_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_at": expires_at,
                "kyc_check_id": kyc_check_id,
                "status": status,
                "vendor_access_token": vendor_access_token,
                "vendor_expires_in": vendor_expires_in,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        kyc_check_id = d.pop("kyc_check_id")

        status = KycStatus(d.pop("status"))

        vendor_access_token = d.pop("vendor_access_token")

        vendor_expires_in = d.pop("vendor_expires_in")

        kyc_token = cls(
            expires_at=expires_at,
            kyc_check_id=kyc_check_id,
            status=status,
            vendor_access_token=vendor_access_token,
            vendor_expires_in=vendor_expires_in,
        )

        kyc_token.additional_properties = d
        return kyc_token

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
