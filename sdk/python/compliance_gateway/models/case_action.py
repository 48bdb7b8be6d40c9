from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outcome import Outcome
from ..models.work_status import WorkStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.proposal_view import ProposalView


T = TypeVar("T", bound="CaseAction")


@_attrs_define
class CaseAction:
    """The case after an action.

    Attributes:
        case_id (str):
        status (WorkStatus): Where a case stands in the team's work.
        tags (list[str]):
        assignee (None | str | Unset):
        decided_by (None | str | Unset): who approved it (a single-step decision: who made it)
        decided_outcome (None | Outcome | Unset):
        proposal (None | ProposalView | Unset):
    """

    case_id: str
    status: WorkStatus
    tags: list[str]
    assignee: None | str | Unset = UNSET
    decided_by: None | str | Unset = UNSET
    decided_outcome: None | Outcome | Unset = UNSET
    proposal: None | ProposalView | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proposal_view import ProposalView

        case_id = self.case_id

        status = self.status.value

        tags = self.tags

        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        decided_by: None | str | Unset
        if isinstance(self.decided_by, Unset):
            decided_by = UNSET
        else:
            decided_by = self.decided_by

        decided_outcome: None | str | Unset
        if isinstance(self.decided_outcome, Unset):
            decided_outcome = UNSET
        elif isinstance(self.decided_outcome, Outcome):
            decided_outcome = self.decided_outcome.value
        else:
            decided_outcome = self.decided_outcome

        proposal: dict[str, Any] | None | Unset
        if isinstance(self.proposal, Unset):
            proposal = UNSET
        elif isinstance(self.proposal, ProposalView):
            proposal = self.proposal.to_dict()
        else:
            proposal = self.proposal

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "status": status,
                "tags": tags,
            }
        )
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if decided_by is not UNSET:
            field_dict["decided_by"] = decided_by
        if decided_outcome is not UNSET:
            field_dict["decided_outcome"] = decided_outcome
        if proposal is not UNSET:
            field_dict["proposal"] = proposal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.proposal_view import ProposalView

        d = dict(src_dict)
        case_id = d.pop("case_id")

        status = WorkStatus(d.pop("status"))

        tags = cast(list[str], d.pop("tags"))

        def _parse_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))

        def _parse_decided_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        decided_by = _parse_decided_by(d.pop("decided_by", UNSET))

        def _parse_decided_outcome(data: object) -> None | Outcome | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_outcome_type_0 = Outcome(data)

                return decided_outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Outcome | Unset, data)

        decided_outcome = _parse_decided_outcome(d.pop("decided_outcome", UNSET))

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

        case_action = cls(
            case_id=case_id,
            status=status,
            tags=tags,
            assignee=assignee,
            decided_by=decided_by,
            decided_outcome=decided_outcome,
            proposal=proposal,
        )

        case_action.additional_properties = d
        return case_action

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
