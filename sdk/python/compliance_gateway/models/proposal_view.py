from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outcome import Outcome

T = TypeVar("T", bound="ProposalView")


@_attrs_define
class ProposalView:
    """
    Attributes:
        outcome (Outcome): A decision's outcome: a fixed set per case type.
        proposal_id (str):
        proposed_at (str):
        proposed_by (str):
        reason (str):
    """

    outcome: Outcome
    proposal_id: str
    proposed_at: str
    proposed_by: str
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        proposal_id = self.proposal_id

        proposed_at = self.proposed_at

        proposed_by = self.proposed_by

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "outcome": outcome,
                "proposal_id": proposal_id,
                "proposed_at": proposed_at,
                "proposed_by": proposed_by,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = Outcome(d.pop("outcome"))

        proposal_id = d.pop("proposal_id")

        proposed_at = d.pop("proposed_at")

        proposed_by = d.pop("proposed_by")

        reason = d.pop("reason")

        proposal_view = cls(
            outcome=outcome,
            proposal_id=proposal_id,
            proposed_at=proposed_at,
            proposed_by=proposed_by,
            reason=reason,
        )

        proposal_view.additional_properties = d
        return proposal_view

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
