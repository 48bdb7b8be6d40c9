from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CtrCandidate")


@_attrs_define
class CtrCandidate:
    """
    Attributes:
        alert_id (str):
        cash_in_cents (int):
        cash_out_cents (int):
        decision_id (str):
        gaming_day_start (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        tenant_id (str):
        user_id (str):
    """

    alert_id: str
    cash_in_cents: int
    cash_out_cents: int
    decision_id: str
    gaming_day_start: datetime.datetime
    tenant_id: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        alert_id = self.alert_id

        cash_in_cents = self.cash_in_cents

        cash_out_cents = self.cash_out_cents

        decision_id = self.decision_id

        gaming_day_start = self.gaming_day_start.isoformat()

        tenant_id = self.tenant_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "alert_id": alert_id,
                "cash_in_cents": cash_in_cents,
                "cash_out_cents": cash_out_cents,
                "decision_id": decision_id,
                "gaming_day_start": gaming_day_start,
                "tenant_id": tenant_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        alert_id = d.pop("alert_id")

        cash_in_cents = d.pop("cash_in_cents")

        cash_out_cents = d.pop("cash_out_cents")

        decision_id = d.pop("decision_id")

        gaming_day_start = datetime.datetime.fromisoformat(d.pop("gaming_day_start"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        ctr_candidate = cls(
            alert_id=alert_id,
            cash_in_cents=cash_in_cents,
            cash_out_cents=cash_out_cents,
            decision_id=decision_id,
            gaming_day_start=gaming_day_start,
            tenant_id=tenant_id,
            user_id=user_id,
        )

        ctr_candidate.additional_properties = d
        return ctr_candidate

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
