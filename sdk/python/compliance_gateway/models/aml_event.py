from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_outcome_name import AmlOutcomeName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.aml_event_event import AmlEventEvent


T = TypeVar("T", bound="AmlEvent")


@_attrs_define
class AmlEvent:
    """
    Attributes:
        aml_event_id (str):
        event (AmlEventEvent): the event as reported
        received_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        review_status (str): `decided`, or `alerted` when it opened an alert (`queued` for events stored before
            monitoring)
        tenant_id (str):
        decision_id (None | str | Unset):
        outcome (AmlOutcomeName | None | Unset):
    """

    aml_event_id: str
    event: AmlEventEvent
    received_at: datetime.datetime
    review_status: str
    tenant_id: str
    decision_id: None | str | Unset = UNSET
    outcome: AmlOutcomeName | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aml_event_id = self.aml_event_id

        event = self.event.to_dict()

        received_at = self.received_at.isoformat()

        review_status = self.review_status

        tenant_id = self.tenant_id

        decision_id: None | str | Unset
        if isinstance(self.decision_id, Unset):
            decision_id = UNSET
        else:
            decision_id = self.decision_id

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        elif isinstance(self.outcome, AmlOutcomeName):
            outcome = self.outcome.value
        else:
            outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aml_event_id": aml_event_id,
                "event": event,
                "received_at": received_at,
                "review_status": review_status,
                "tenant_id": tenant_id,
            }
        )
        if decision_id is not UNSET:
            field_dict["decision_id"] = decision_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aml_event_event import AmlEventEvent

        d = dict(src_dict)
        aml_event_id = d.pop("aml_event_id")

        event = AmlEventEvent.from_dict(d.pop("event"))

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        review_status = d.pop("review_status")

        tenant_id = d.pop("tenant_id")

        def _parse_decision_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        decision_id = _parse_decision_id(d.pop("decision_id", UNSET))

        def _parse_outcome(data: object) -> AmlOutcomeName | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = AmlOutcomeName(data)

                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AmlOutcomeName | None | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        aml_event = cls(
            aml_event_id=aml_event_id,
            event=event,
            received_at=received_at,
            review_status=review_status,
            tenant_id=tenant_id,
            decision_id=decision_id,
            outcome=outcome,
        )

        aml_event.additional_properties = d
        return aml_event

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
