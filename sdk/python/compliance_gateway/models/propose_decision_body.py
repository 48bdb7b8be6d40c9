from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outcome import Outcome

T = TypeVar("T", bound="ProposeDecisionBody")


@_attrs_define
class ProposeDecisionBody:
    """
    Attributes:
        outcome (Outcome): A decision's outcome: a fixed set per case type.
        reason (str): why: required, 1 to 4,000 characters
    """

    outcome: Outcome
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "outcome": outcome,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = Outcome(d.pop("outcome"))

        reason = d.pop("reason")

        propose_decision_body = cls(
            outcome=outcome,
            reason=reason,
        )

        propose_decision_body.additional_properties = d
        return propose_decision_body

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
