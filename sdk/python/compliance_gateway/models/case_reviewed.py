from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.review_action import ReviewAction
from ..models.sanctions_status import SanctionsStatus

T = TypeVar("T", bound="CaseReviewed")


@_attrs_define
class CaseReviewed:
    """
    Attributes:
        case_id (str):
        decision (ReviewAction): dismiss (a false positive) or confirm
        reviewer (str):
        status (SanctionsStatus): a user's screening status
        user_id (str):
    """

    case_id: str
    decision: ReviewAction
    reviewer: str
    status: SanctionsStatus
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        decision = self.decision.value

        reviewer = self.reviewer

        status = self.status.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "decision": decision,
                "reviewer": reviewer,
                "status": status,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        case_id = d.pop("case_id")

        decision = ReviewAction(d.pop("decision"))

        reviewer = d.pop("reviewer")

        status = SanctionsStatus(d.pop("status"))

        user_id = d.pop("user_id")

        case_reviewed = cls(
            case_id=case_id,
            decision=decision,
            reviewer=reviewer,
            status=status,
            user_id=user_id,
        )

        case_reviewed.additional_properties = d
        return case_reviewed

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
