from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_outcome_name import AmlOutcomeName

if TYPE_CHECKING:
    from ..models.alert_view_explanation import AlertViewExplanation


T = TypeVar("T", bound="AlertView")


@_attrs_define
class AlertView:
    """An alert as the compliance team sees it: why it fired, rule by rule.

    Attributes:
        actions (list[str]):
        alert_id (str):
        aml_event_id (str):
        case_id (str):
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        decision_id (str):
        explanation (AlertViewExplanation): each fired rule: `{rule_id, version, reason_code, inputs, window_from,
            window_to, threshold}`
        outcome (AmlOutcomeName):
        tenant_id (str):
        typologies (list[str]): the reason codes of the rules that fired
        user_id (str):
    """

    actions: list[str]
    alert_id: str
    aml_event_id: str
    case_id: str
    created_at: datetime.datetime
    decision_id: str
    explanation: AlertViewExplanation
    outcome: AmlOutcomeName
    tenant_id: str
    typologies: list[str]
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions

        alert_id = self.alert_id

        aml_event_id = self.aml_event_id

        case_id = self.case_id

        created_at = self.created_at.isoformat()

        decision_id = self.decision_id

        explanation = self.explanation.to_dict()

        outcome = self.outcome.value

        tenant_id = self.tenant_id

        typologies = self.typologies

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "alert_id": alert_id,
                "aml_event_id": aml_event_id,
                "case_id": case_id,
                "created_at": created_at,
                "decision_id": decision_id,
                "explanation": explanation,
                "outcome": outcome,
                "tenant_id": tenant_id,
                "typologies": typologies,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.alert_view_explanation import AlertViewExplanation

        d = dict(src_dict)
        actions = cast(list[str], d.pop("actions"))

        alert_id = d.pop("alert_id")

        aml_event_id = d.pop("aml_event_id")

        case_id = d.pop("case_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        decision_id = d.pop("decision_id")

        explanation = AlertViewExplanation.from_dict(d.pop("explanation"))

        outcome = AmlOutcomeName(d.pop("outcome"))

        tenant_id = d.pop("tenant_id")

        typologies = cast(list[str], d.pop("typologies"))

        user_id = d.pop("user_id")

        alert_view = cls(
            actions=actions,
            alert_id=alert_id,
            aml_event_id=aml_event_id,
            case_id=case_id,
            created_at=created_at,
            decision_id=decision_id,
            explanation=explanation,
            outcome=outcome,
            tenant_id=tenant_id,
            typologies=typologies,
            user_id=user_id,
        )

        alert_view.additional_properties = d
        return alert_view

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
