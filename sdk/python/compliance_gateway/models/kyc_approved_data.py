from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="KycApprovedData")


@_attrs_define
class KycApprovedData:
    """`kyc.approved`: the user is verified to a tier, and the check's held
    withdrawal is released (`release_withdrawal_id` names it), unless
    another hold still stands (the reason is not said): then
    `release_withdrawal_id` is null and the withdrawal is cancelled (its
    `withdrawal_status` is `cancelled`, it counts toward no total); the
    operator asks again with `POST /v1/kyc/start` and is answered under the
    holds then.

        Attributes:
            kyc_check_id (str):
            release_withdrawal_id (None | str): the withdrawal the operator may now pay out; null when another hold
                cancelled it
            user_id (str):
            verified_tier (str):
    """

    kyc_check_id: str
    release_withdrawal_id: None | str
    user_id: str
    verified_tier: str

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        release_withdrawal_id: None | str
        release_withdrawal_id = self.release_withdrawal_id

        user_id = self.user_id

        verified_tier = self.verified_tier

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "release_withdrawal_id": release_withdrawal_id,
                "user_id": user_id,
                "verified_tier": verified_tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        def _parse_release_withdrawal_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        release_withdrawal_id = _parse_release_withdrawal_id(
            d.pop("release_withdrawal_id")
        )

        user_id = d.pop("user_id")

        verified_tier = d.pop("verified_tier")

        kyc_approved_data = cls(
            kyc_check_id=kyc_check_id,
            release_withdrawal_id=release_withdrawal_id,
            user_id=user_id,
            verified_tier=verified_tier,
        )

        return kyc_approved_data
