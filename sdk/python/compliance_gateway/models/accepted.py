from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_outcome_name import AmlOutcomeName
from ..models.aml_report_status import AmlReportStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Accepted")


@_attrs_define
class Accepted:
    """
    Attributes:
        aml_event_id (str):
        outcome (AmlOutcomeName):
        received_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        status (AmlReportStatus): What became of a report.
        transaction_id (str):
        alert_id (None | str | Unset): the alert this event opened, if any
    """

    aml_event_id: str
    outcome: AmlOutcomeName
    received_at: datetime.datetime
    status: AmlReportStatus
    transaction_id: str
    alert_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aml_event_id = self.aml_event_id

        outcome = self.outcome.value

        received_at = self.received_at.isoformat()

        status = self.status.value

        transaction_id = self.transaction_id

        alert_id: None | str | Unset
        if isinstance(self.alert_id, Unset):
            alert_id = UNSET
        else:
            alert_id = self.alert_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aml_event_id": aml_event_id,
                "outcome": outcome,
                "received_at": received_at,
                "status": status,
                "transaction_id": transaction_id,
            }
        )
        if alert_id is not UNSET:
            field_dict["alert_id"] = alert_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        aml_event_id = d.pop("aml_event_id")

        outcome = AmlOutcomeName(d.pop("outcome"))

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        status = AmlReportStatus(d.pop("status"))

        transaction_id = d.pop("transaction_id")

        def _parse_alert_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        alert_id = _parse_alert_id(d.pop("alert_id", UNSET))

        accepted = cls(
            aml_event_id=aml_event_id,
            outcome=outcome,
            received_at=received_at,
            status=status,
            transaction_id=transaction_id,
            alert_id=alert_id,
        )

        accepted.additional_properties = d
        return accepted

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
