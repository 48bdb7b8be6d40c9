from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.case_type import CaseType
from ..models.outcome import Outcome
from ..models.work_status import WorkStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="QueueRow")


@_attrs_define
class QueueRow:
    """
    Attributes:
        age_seconds (int):
        case_id (str):
        case_type (CaseType): What a case asks of the team.
        overdue (bool):
        status (WorkStatus): Where a case stands in the team's work.
        tags (list[str]):
        tenant_id (str):
        user_id (str):
        waiting_since (str):
        assignee (None | str | Unset):
        proposed_outcome (None | Outcome | Unset):
        review_due_at (None | str | Unset):
    """

    age_seconds: int
    case_id: str
    case_type: CaseType
    overdue: bool
    status: WorkStatus
    tags: list[str]
    tenant_id: str
    user_id: str
    waiting_since: str
    assignee: None | str | Unset = UNSET
    proposed_outcome: None | Outcome | Unset = UNSET
    review_due_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        age_seconds = self.age_seconds

        case_id = self.case_id

        case_type = self.case_type.value

        overdue = self.overdue

        status = self.status.value

        tags = self.tags

        tenant_id = self.tenant_id

        user_id = self.user_id

        waiting_since = self.waiting_since

        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        proposed_outcome: None | str | Unset
        if isinstance(self.proposed_outcome, Unset):
            proposed_outcome = UNSET
        elif isinstance(self.proposed_outcome, Outcome):
            proposed_outcome = self.proposed_outcome.value
        else:
            proposed_outcome = self.proposed_outcome

        review_due_at: None | str | Unset
        if isinstance(self.review_due_at, Unset):
            review_due_at = UNSET
        else:
            review_due_at = self.review_due_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "age_seconds": age_seconds,
                "case_id": case_id,
                "case_type": case_type,
                "overdue": overdue,
                "status": status,
                "tags": tags,
                "tenant_id": tenant_id,
                "user_id": user_id,
                "waiting_since": waiting_since,
            }
        )
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if proposed_outcome is not UNSET:
            field_dict["proposed_outcome"] = proposed_outcome
        if review_due_at is not UNSET:
            field_dict["review_due_at"] = review_due_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        age_seconds = d.pop("age_seconds")

        case_id = d.pop("case_id")

        case_type = CaseType(d.pop("case_type"))

        overdue = d.pop("overdue")

        status = WorkStatus(d.pop("status"))

        tags = cast(list[str], d.pop("tags"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        waiting_since = d.pop("waiting_since")

        def _parse_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))

        def _parse_proposed_outcome(data: object) -> None | Outcome | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                proposed_outcome_type_0 = Outcome(data)

                return proposed_outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Outcome | Unset, data)

        proposed_outcome = _parse_proposed_outcome(d.pop("proposed_outcome", UNSET))

        def _parse_review_due_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review_due_at = _parse_review_due_at(d.pop("review_due_at", UNSET))

        queue_row = cls(
            age_seconds=age_seconds,
            case_id=case_id,
            case_type=case_type,
            overdue=overdue,
            status=status,
            tags=tags,
            tenant_id=tenant_id,
            user_id=user_id,
            waiting_since=waiting_since,
            assignee=assignee,
            proposed_outcome=proposed_outcome,
            review_due_at=review_due_at,
        )

        queue_row.additional_properties = d
        return queue_row

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
