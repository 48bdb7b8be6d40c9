from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.case_type import CaseType
from ..models.outcome import Outcome
from ..models.work_status import WorkStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.proposal_view import ProposalView
    from ..models.timeline_entry import TimelineEntry


T = TypeVar("T", bound="CaseFile")


@_attrs_define
class CaseFile:
    """
    Attributes:
        case_id (str):
        case_type (CaseType): What a case asks of the team.
        four_eyes (bool): whether a decision takes a second person's approval here
        outcomes (list[Outcome]): the outcomes a decision on this case may take
        overdue (bool):
        status (WorkStatus): Where a case stands in the team's work.
        subject (str): the subject in its own area's admin API (matches, scores, the vendor's status)
        tags (list[str]):
        tenant_id (str):
        timeline (list[TimelineEntry]): every event, oldest first; comments are its `commented` entries
        user_id (str):
        waiting_since (str):
        assignee (None | str | Unset):
        proposal (None | ProposalView | Unset):
        review_due_at (None | str | Unset):
    """

    case_id: str
    case_type: CaseType
    four_eyes: bool
    outcomes: list[Outcome]
    overdue: bool
    status: WorkStatus
    subject: str
    tags: list[str]
    tenant_id: str
    timeline: list[TimelineEntry]
    user_id: str
    waiting_since: str
    assignee: None | str | Unset = UNSET
    proposal: None | ProposalView | Unset = UNSET
    review_due_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proposal_view import ProposalView

        case_id = self.case_id

        case_type = self.case_type.value

        four_eyes = self.four_eyes

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.value
            outcomes.append(outcomes_item)

        overdue = self.overdue

        status = self.status.value

        subject = self.subject

        tags = self.tags

        tenant_id = self.tenant_id

        timeline = []
        for timeline_item_data in self.timeline:
            timeline_item = timeline_item_data.to_dict()
            timeline.append(timeline_item)

        user_id = self.user_id

        waiting_since = self.waiting_since

        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        proposal: dict[str, Any] | None | Unset
        if isinstance(self.proposal, Unset):
            proposal = UNSET
        elif isinstance(self.proposal, ProposalView):
            proposal = self.proposal.to_dict()
        else:
            proposal = self.proposal

        review_due_at: None | str | Unset
        if isinstance(self.review_due_at, Unset):
            review_due_at = UNSET
        else:
            review_due_at = self.review_due_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "case_type": case_type,
                "four_eyes": four_eyes,
                "outcomes": outcomes,
                "overdue": overdue,
                "status": status,
                "subject": subject,
                "tags": tags,
                "tenant_id": tenant_id,
                "timeline": timeline,
                "user_id": user_id,
                "waiting_since": waiting_since,
            }
        )
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if proposal is not UNSET:
            field_dict["proposal"] = proposal
        if review_due_at is not UNSET:
            field_dict["review_due_at"] = review_due_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.proposal_view import ProposalView
        from ..models.timeline_entry import TimelineEntry

        d = dict(src_dict)
        case_id = d.pop("case_id")

        case_type = CaseType(d.pop("case_type"))

        four_eyes = d.pop("four_eyes")

        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in _outcomes:
            outcomes_item = Outcome(outcomes_item_data)

            outcomes.append(outcomes_item)

        overdue = d.pop("overdue")

        status = WorkStatus(d.pop("status"))

        subject = d.pop("subject")

        tags = cast(list[str], d.pop("tags"))

        tenant_id = d.pop("tenant_id")

        timeline = []
        _timeline = d.pop("timeline")
        for timeline_item_data in _timeline:
            timeline_item = TimelineEntry.from_dict(timeline_item_data)

            timeline.append(timeline_item)

        user_id = d.pop("user_id")

        waiting_since = d.pop("waiting_since")

        def _parse_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))

        def _parse_proposal(data: object) -> None | ProposalView | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proposal_type_0 = ProposalView.from_dict(data)

                return proposal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProposalView | Unset, data)

        proposal = _parse_proposal(d.pop("proposal", UNSET))

        def _parse_review_due_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review_due_at = _parse_review_due_at(d.pop("review_due_at", UNSET))

        case_file = cls(
            case_id=case_id,
            case_type=case_type,
            four_eyes=four_eyes,
            outcomes=outcomes,
            overdue=overdue,
            status=status,
            subject=subject,
            tags=tags,
            tenant_id=tenant_id,
            timeline=timeline,
            user_id=user_id,
            waiting_since=waiting_since,
            assignee=assignee,
            proposal=proposal,
            review_due_at=review_due_at,
        )

        case_file.additional_properties = d
        return case_file

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
