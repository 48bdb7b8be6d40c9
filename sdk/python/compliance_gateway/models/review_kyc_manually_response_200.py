from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_status import KycStatus

T = TypeVar("T", bound="ReviewKycManuallyResponse200")


@_attrs_define
class ReviewKycManuallyResponse200:
    """
    Attributes:
        kyc_check_id (str):
        reason (None | str):
        reviewer (str):
        status (KycStatus): a verification check's status
    """

    kyc_check_id: str
    reason: None | str
    reviewer: str
    status: KycStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kyc_check_id = self.kyc_check_id

        reason: None | str
        reason = self.reason

        reviewer = self.reviewer

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kyc_check_id": kyc_check_id,
                "reason": reason,
                "reviewer": reviewer,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kyc_check_id = d.pop("kyc_check_id")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        reviewer = d.pop("reviewer")

        status = KycStatus(d.pop("status"))

        review_kyc_manually_response_200 = cls(
            kyc_check_id=kyc_check_id,
            reason=reason,
            reviewer=reviewer,
            status=status,
        )

        review_kyc_manually_response_200.additional_properties = d
        return review_kyc_manually_response_200

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
