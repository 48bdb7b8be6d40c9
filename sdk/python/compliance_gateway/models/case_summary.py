from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.case_kind import CaseKind
from ..models.case_status import CaseStatus

T = TypeVar("T", bound="CaseSummary")


@_attrs_define
class CaseSummary:
    """A case in a review list.

    Attributes:
        age_seconds (int):
        case_id (str):
        case_type (CaseKind): a sanctions hit (transactions held until decided) or enhanced due diligence on a PEP or
            adverse-media match (nothing held)
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        highest_match_score (float):
        match_count (int):
        overdue (bool):
        review_due_at (datetime.datetime | None):
        status (CaseStatus): a sanctions case's status
        tenant_id (str):
        user_id (str):
    """

    age_seconds: int
    case_id: str
    case_type: CaseKind
    created_at: datetime.datetime
    highest_match_score: float
    match_count: int
    overdue: bool
    review_due_at: datetime.datetime | None
    status: CaseStatus
    tenant_id: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        age_seconds = self.age_seconds

        case_id = self.case_id

        case_type = self.case_type.value

        created_at = self.created_at.isoformat()

        highest_match_score = self.highest_match_score

        match_count = self.match_count

        overdue = self.overdue

        review_due_at: None | str
        if isinstance(self.review_due_at, datetime.datetime):
            review_due_at = self.review_due_at.isoformat()
        else:
            review_due_at = self.review_due_at

        status = self.status.value

        tenant_id = self.tenant_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "age_seconds": age_seconds,
                "case_id": case_id,
                "case_type": case_type,
                "created_at": created_at,
                "highest_match_score": highest_match_score,
                "match_count": match_count,
                "overdue": overdue,
                "review_due_at": review_due_at,
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

        case_id = d.pop("case_id")

        case_type = CaseKind(d.pop("case_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        highest_match_score = d.pop("highest_match_score")

        match_count = d.pop("match_count")

        overdue = d.pop("overdue")

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

        status = CaseStatus(d.pop("status"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        case_summary = cls(
            age_seconds=age_seconds,
            case_id=case_id,
            case_type=case_type,
            created_at=created_at,
            highest_match_score=highest_match_score,
            match_count=match_count,
            overdue=overdue,
            review_due_at=review_due_at,
            status=status,
            tenant_id=tenant_id,
            user_id=user_id,
        )

        case_summary.additional_properties = d
        return case_summary

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
