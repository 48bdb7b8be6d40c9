from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DisagreementView")


@_attrs_define
class DisagreementView:
    """
    Attributes:
        aml_event_id (str):
        at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        decision_id (str): the live decision, in the decision log
        disagreement_id (str):
        live_alert (list[str]): the typologies the live alert named (empty: no alert)
        live_outcome (str):
        shadow_alert (list[str]):
        shadow_outcome (str):
        shadow_rules_sha256 (str):
        tenant_id (str):
    """

    aml_event_id: str
    at: datetime.datetime
    decision_id: str
    disagreement_id: str
    live_alert: list[str]
    live_outcome: str
    shadow_alert: list[str]
    shadow_outcome: str
    shadow_rules_sha256: str
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aml_event_id = self.aml_event_id

        at = self.at.isoformat()

        decision_id = self.decision_id

        disagreement_id = self.disagreement_id

        live_alert = self.live_alert

        live_outcome = self.live_outcome

        shadow_alert = self.shadow_alert

        shadow_outcome = self.shadow_outcome

        shadow_rules_sha256 = self.shadow_rules_sha256

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aml_event_id": aml_event_id,
                "at": at,
                "decision_id": decision_id,
                "disagreement_id": disagreement_id,
                "live_alert": live_alert,
                "live_outcome": live_outcome,
                "shadow_alert": shadow_alert,
                "shadow_outcome": shadow_outcome,
                "shadow_rules_sha256": shadow_rules_sha256,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        aml_event_id = d.pop("aml_event_id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        decision_id = d.pop("decision_id")

        disagreement_id = d.pop("disagreement_id")

        live_alert = cast(list[str], d.pop("live_alert"))

        live_outcome = d.pop("live_outcome")

        shadow_alert = cast(list[str], d.pop("shadow_alert"))

        shadow_outcome = d.pop("shadow_outcome")

        shadow_rules_sha256 = d.pop("shadow_rules_sha256")

        tenant_id = d.pop("tenant_id")

        disagreement_view = cls(
            aml_event_id=aml_event_id,
            at=at,
            decision_id=decision_id,
            disagreement_id=disagreement_id,
            live_alert=live_alert,
            live_outcome=live_outcome,
            shadow_alert=shadow_alert,
            shadow_outcome=shadow_outcome,
            shadow_rules_sha256=shadow_rules_sha256,
            tenant_id=tenant_id,
        )

        disagreement_view.additional_properties = d
        return disagreement_view

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
