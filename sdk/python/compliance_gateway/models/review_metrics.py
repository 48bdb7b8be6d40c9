from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.environment import Environment

if TYPE_CHECKING:
    from ..models.aml_feedback import AmlFeedback


T = TypeVar("T", bound="ReviewMetrics")


@_attrs_define
class ReviewMetrics:
    """The review work the compliance team watches.

    Attributes:
        aml (AmlFeedback): What the team's outcomes say of the rules.
        due_diligence_cases_open (int): open due-diligence cases on PEP or adverse-media matches (holding nothing)
        due_diligence_cases_overdue (int):
        environment (Environment): a tenant's environment
        kyc_checks_overdue (int):
        kyc_checks_pending_review (int):
        measured_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        review_target_seconds (int):
        sanctions_cases_open (int): open sanctions hits (holding the user's transactions)
        sanctions_cases_overdue (int):
        sanctions_lists_missing (int): required sources with no version loaded
        sanctions_lists_required (int): the environment's required list sources (production's; none in the sandbox)
        sanctions_lists_stale (int): required sources loaded but not refreshed within the freshness window
    """

    aml: AmlFeedback
    due_diligence_cases_open: int
    due_diligence_cases_overdue: int
    environment: Environment
    kyc_checks_overdue: int
    kyc_checks_pending_review: int
    measured_at: datetime.datetime
    review_target_seconds: int
    sanctions_cases_open: int
    sanctions_cases_overdue: int
    sanctions_lists_missing: int
    sanctions_lists_required: int
    sanctions_lists_stale: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aml = self.aml.to_dict()

        due_diligence_cases_open = self.due_diligence_cases_open

        due_diligence_cases_overdue = self.due_diligence_cases_overdue

        environment = self.environment.value

        kyc_checks_overdue = self.kyc_checks_overdue

        kyc_checks_pending_review = self.kyc_checks_pending_review

        measured_at = self.measured_at.isoformat()

        review_target_seconds = self.review_target_seconds

        sanctions_cases_open = self.sanctions_cases_open

        sanctions_cases_overdue = self.sanctions_cases_overdue

        sanctions_lists_missing = self.sanctions_lists_missing

        sanctions_lists_required = self.sanctions_lists_required

        sanctions_lists_stale = self.sanctions_lists_stale

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aml": aml,
                "due_diligence_cases_open": due_diligence_cases_open,
                "due_diligence_cases_overdue": due_diligence_cases_overdue,
                "environment": environment,
                "kyc_checks_overdue": kyc_checks_overdue,
                "kyc_checks_pending_review": kyc_checks_pending_review,
                "measured_at": measured_at,
                "review_target_seconds": review_target_seconds,
                "sanctions_cases_open": sanctions_cases_open,
                "sanctions_cases_overdue": sanctions_cases_overdue,
                "sanctions_lists_missing": sanctions_lists_missing,
                "sanctions_lists_required": sanctions_lists_required,
                "sanctions_lists_stale": sanctions_lists_stale,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aml_feedback import AmlFeedback

        d = dict(src_dict)
        aml = AmlFeedback.from_dict(d.pop("aml"))

        due_diligence_cases_open = d.pop("due_diligence_cases_open")

        due_diligence_cases_overdue = d.pop("due_diligence_cases_overdue")

        environment = Environment(d.pop("environment"))

        kyc_checks_overdue = d.pop("kyc_checks_overdue")

        kyc_checks_pending_review = d.pop("kyc_checks_pending_review")

        measured_at = datetime.datetime.fromisoformat(d.pop("measured_at"))

        review_target_seconds = d.pop("review_target_seconds")

        sanctions_cases_open = d.pop("sanctions_cases_open")

        sanctions_cases_overdue = d.pop("sanctions_cases_overdue")

        sanctions_lists_missing = d.pop("sanctions_lists_missing")

        sanctions_lists_required = d.pop("sanctions_lists_required")

        sanctions_lists_stale = d.pop("sanctions_lists_stale")

        review_metrics = cls(
            aml=aml,
            due_diligence_cases_open=due_diligence_cases_open,
            due_diligence_cases_overdue=due_diligence_cases_overdue,
            environment=environment,
            kyc_checks_overdue=kyc_checks_overdue,
            kyc_checks_pending_review=kyc_checks_pending_review,
            measured_at=measured_at,
            review_target_seconds=review_target_seconds,
            sanctions_cases_open=sanctions_cases_open,
            sanctions_cases_overdue=sanctions_cases_overdue,
            sanctions_lists_missing=sanctions_lists_missing,
            sanctions_lists_required=sanctions_lists_required,
            sanctions_lists_stale=sanctions_lists_stale,
        )

        review_metrics.additional_properties = d
        return review_metrics

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
