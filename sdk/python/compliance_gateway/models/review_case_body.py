from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.review_action import ReviewAction

T = TypeVar("T", bound="ReviewCaseBody")


@_attrs_define
class ReviewCaseBody:
    """The body of a case review.

    Attributes:
        decision (ReviewAction): dismiss (a false positive) or confirm
        reviewer (str):
    """

    decision: ReviewAction
    reviewer: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision = self.decision.value

        reviewer = self.reviewer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "reviewer": reviewer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = ReviewAction(d.pop("decision"))

        reviewer = d.pop("reviewer")

        review_case_body = cls(
            decision=decision,
            reviewer=reviewer,
        )

        review_case_body.additional_properties = d
        return review_case_body

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
