from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_escalation import KycEscalation
from ..models.kyc_status import KycStatus
from ..models.tier import Tier

T = TypeVar("T", bound="KycCheckSummary")


@_attrs_define
class KycCheckSummary:
    """A check in a review list.

    Attributes:
        age_seconds (int):
        escalation (KycEscalation | None):
        in_status_since (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        kyc_check_id (str):
        overdue (bool):
        required_documents (list[str]): what the required tier asks of the user, as the check was started
        required_tier (Tier): a KYC tier, keyed to lifetime withdrawals
        review_due_at (datetime.datetime | None):
        review_reason (None | str): the reason given with a manual decision
        reviewer (None | str): who last moved the check: a person, `sumsub`, `sandbox_vendor`, `user`, `cli` or
            `abandoned`
        status (KycStatus): a verification check's status
        tenant_id (str):
        user_id (str):
    """

    age_seconds: int
    escalation: KycEscalation | None
    in_status_since: datetime.datetime
    kyc_check_id: str
    overdue: bool
    required_documents: list[str]
    required_tier: Tier
    review_due_at: datetime.datetime | None
    review_reason: None | str
    reviewer: None | str
    status: KycStatus
    tenant_id: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        age_seconds = self.age_seconds

        escalation: None | str
        if isinstance(self.escalation, KycEscalation):
            escalation = self.escalation.value
        else:
            escalation = self.escalation

        in_status_since = self.in_status_since.isoformat()

        kyc_check_id = self.kyc_check_id

        overdue = self.overdue

        required_documents = self.required_documents

        required_tier = self.required_tier.value

        review_due_at: None | str
        if isinstance(self.review_due_at, datetime.datetime):
            review_due_at = self.review_due_at.isoformat()
        else:
            review_due_at = self.review_due_at

        review_reason: None | str
        review_reason = self.review_reason

        reviewer: None | str
        reviewer = self.reviewer

        status = self.status.value

        tenant_id = self.tenant_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "age_seconds": age_seconds,
                "escalation": escalation,
                "in_status_since": in_status_since,
                "kyc_check_id": kyc_check_id,
                "overdue": overdue,
                "required_documents": required_documents,
                "required_tier": required_tier,
                "review_due_at": review_due_at,
                "review_reason": review_reason,
                "reviewer": reviewer,
                "status": status,
                "tenant_id": tenant_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        age_seconds = d.pop("age_seconds")

        def _parse_escalation(data: object) -> KycEscalation | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                escalation_type_0 = KycEscalation(data)

                return escalation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KycEscalation | None, data)

        escalation = _parse_escalation(d.pop("escalation"))

        in_status_since = datetime.datetime.fromisoformat(d.pop("in_status_since"))

        kyc_check_id = d.pop("kyc_check_id")

        overdue = d.pop("overdue")

        required_documents = cast(list[str], d.pop("required_documents"))

        required_tier = Tier(d.pop("required_tier"))

        def _parse_review_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                review_due_at_type_0 = datetime.datetime.fromisoformat(data)

                return review_due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        review_due_at = _parse_review_due_at(d.pop("review_due_at"))

        def _parse_review_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        review_reason = _parse_review_reason(d.pop("review_reason"))

        def _parse_reviewer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewer = _parse_reviewer(d.pop("reviewer"))

        status = KycStatus(d.pop("status"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        kyc_check_summary = cls(
            age_seconds=age_seconds,
            escalation=escalation,
            in_status_since=in_status_since,
            kyc_check_id=kyc_check_id,
            overdue=overdue,
            required_documents=required_documents,
            required_tier=required_tier,
            review_due_at=review_due_at,
            review_reason=review_reason,
            reviewer=reviewer,
            status=status,
            tenant_id=tenant_id,
            user_id=user_id,
        )

        kyc_check_summary.additional_properties = d
        return kyc_check_summary

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
