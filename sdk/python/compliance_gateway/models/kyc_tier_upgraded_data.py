from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KycTierUpgradedData")


@_attrs_define
class KycTierUpgradedData:
    """`kyc.tier_upgraded`: the user's verified tier went up.

    Attributes:
        previous_tier (str):
        user_id (str):
        verified_tier (str):
    """

    previous_tier: str
    user_id: str
    verified_tier: str

    def to_dict(self) -> dict[str, Any]:
        previous_tier = self.previous_tier

        user_id = self.user_id

        verified_tier = self.verified_tier

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "previous_tier": previous_tier,
                "user_id": user_id,
                "verified_tier": verified_tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        previous_tier = d.pop("previous_tier")

        user_id = d.pop("user_id")

        verified_tier = d.pop("verified_tier")

        kyc_tier_upgraded_data = cls(
            previous_tier=previous_tier,
            user_id=user_id,
            verified_tier=verified_tier,
        )

        return kyc_tier_upgraded_data
