from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KycExpiredData")


@_attrs_define
class KycExpiredData:
    """`kyc.expired`: the verification was abandoned; its withdrawal is cancelled.

    Attributes:
        kyc_check_id (str):
        user_id (str):
        withdrawal_cancelled (bool):
        withdrawal_id (str):
    """

    kyc_check_id: str
    user_id: str
    withdrawal_cancelled: bool
    withdrawal_id: str

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        user_id = self.user_id

        withdrawal_cancelled = self.withdrawal_cancelled

        withdrawal_id = self.withdrawal_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "user_id": user_id,
                "withdrawal_cancelled": withdrawal_cancelled,
                "withdrawal_id": withdrawal_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        user_id = d.pop("user_id")

        withdrawal_cancelled = d.pop("withdrawal_cancelled")

        withdrawal_id = d.pop("withdrawal_id")

        kyc_expired_data = cls(
            kyc_check_id=kyc_check_id,
            user_id=user_id,
            withdrawal_cancelled=withdrawal_cancelled,
            withdrawal_id=withdrawal_id,
        )

        return kyc_expired_data
