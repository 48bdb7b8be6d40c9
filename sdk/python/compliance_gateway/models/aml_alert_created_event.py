from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.aml_alert_data import AmlAlertData


T = TypeVar("T", bound="AmlAlertCreatedEvent")


@_attrs_define
class AmlAlertCreatedEvent:
    """the body of a `aml.alert_created` delivery

    Attributes:
        data (AmlAlertData): `aml.alert_created`: the transaction monitor raised an alert.
        event (Literal['aml.alert_created']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: AmlAlertData
    event: Literal["aml.alert_created"]
    event_id: str
    timestamp: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        event = self.event

        event_id = self.event_id

        timestamp = self.timestamp.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "event": event,
                "event_id": event_id,
                "timestamp": timestamp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aml_alert_data import AmlAlertData

        d = dict(src_dict)
        data = AmlAlertData.from_dict(d.pop("data"))

        event = cast(Literal["aml.alert_created"], d.pop("event"))
        if event != "aml.alert_created":
            raise ValueError(
                f"event must match const 'aml.alert_created', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        aml_alert_created_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return aml_alert_created_event
