from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.review_kyc_manually_body_decision import ReviewKycManuallyBodyDecision
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReviewKycManuallyBody")


@_attrs_define
class ReviewKycManuallyBody:
    """The body of a manual review.

    Attributes:
        decision (ReviewKycManuallyBodyDecision): A reviewer's verdict on a check.
        kyc_check_id (str):
        reviewer (str):
        reason (None | str | Unset):
    """

    decision: ReviewKycManuallyBodyDecision
    kyc_check_id: str
    reviewer: str
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision = self.decision.value

        kyc_check_id = self.kyc_check_id

        reviewer = self.reviewer

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "kyc_check_id": kyc_check_id,
                "reviewer": reviewer,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = ReviewKycManuallyBodyDecision(d.pop("decision"))

        kyc_check_id = d.pop("kyc_check_id")

        reviewer = d.pop("reviewer")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        review_kyc_manually_body = cls(
            decision=decision,
            kyc_check_id=kyc_check_id,
            reviewer=reviewer,
            reason=reason,
        )

        review_kyc_manually_body.additional_properties = d
        return review_kyc_manually_body

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
