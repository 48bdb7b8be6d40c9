from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KycRejectedData")


@_attrs_define
class KycRejectedData:
    """`kyc.rejected`: the verification failed; the withdrawal stays held.

    Attributes:
        kyc_check_id (str):
        required_tier (str):
        user_id (str):
        withdrawal_held (bool):
        withdrawal_id (str):
    """

    kyc_check_id: str
    required_tier: str
    user_id: str
    withdrawal_held: bool
    withdrawal_id: str

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        required_tier = self.required_tier

        user_id = self.user_id

        withdrawal_held = self.withdrawal_held

        withdrawal_id = self.withdrawal_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "required_tier": required_tier,
                "user_id": user_id,
                "withdrawal_held": withdrawal_held,
                "withdrawal_id": withdrawal_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        required_tier = d.pop("required_tier")

        user_id = d.pop("user_id")

        withdrawal_held = d.pop("withdrawal_held")

        withdrawal_id = d.pop("withdrawal_id")

        kyc_rejected_data = cls(
            kyc_check_id=kyc_check_id,
            required_tier=required_tier,
            user_id=user_id,
            withdrawal_held=withdrawal_held,
            withdrawal_id=withdrawal_id,
        )

        return kyc_rejected_data
