from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KycCheckData")


@_attrs_define
class KycCheckData:
    """`kyc.started`, `kyc.submitted`: a verification began, or its documents were sent.

    Attributes:
        kyc_check_id (str):
        required_tier (str):
        user_id (str):
    """

    kyc_check_id: str
    required_tier: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        required_tier = self.required_tier

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "required_tier": required_tier,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        required_tier = d.pop("required_tier")

        user_id = d.pop("user_id")

        kyc_check_data = cls(
            kyc_check_id=kyc_check_id,
            required_tier=required_tier,
            user_id=user_id,
        )

        return kyc_check_data
