from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_status import KycStatus

T = TypeVar("T", bound="KycCheckStatus")


@_attrs_define
class KycCheckStatus:
    """A check's status after an action on it.

    Attributes:
        kyc_check_id (str):
        status (KycStatus): a verification check's status
    """

    kyc_check_id: str
    status: KycStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        status = KycStatus(d.pop("status"))

        kyc_check_status = cls(
            kyc_check_id=kyc_check_id,
            status=status,
        )

        kyc_check_status.additional_properties = d
        return kyc_check_status

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
