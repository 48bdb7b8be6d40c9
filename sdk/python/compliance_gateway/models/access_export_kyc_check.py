from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AccessExportKycCheck")


@_attrs_define
class AccessExportKycCheck:
    """
    Attributes:
        created_at (str):
        kyc_check_id (str):
        status (str):
        target_tier (str):
        updated_at (str):
    """

    created_at: str
    kyc_check_id: str
    status: str
    target_tier: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        kyc_check_id = self.kyc_check_id

        status = self.status

        target_tier = self.target_tier

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "kyc_check_id": kyc_check_id,
                "status": status,
                "target_tier": target_tier,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        kyc_check_id = d.pop("kyc_check_id")

        status = d.pop("status")

        target_tier = d.pop("target_tier")

        updated_at = d.pop("updated_at")

        access_export_kyc_check = cls(
            created_at=created_at,
            kyc_check_id=kyc_check_id,
            status=status,
            target_tier=target_tier,
            updated_at=updated_at,
        )

        access_export_kyc_check.additional_properties = d
        return access_export_kyc_check

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
