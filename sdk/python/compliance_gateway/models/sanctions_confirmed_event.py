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
    from ..models.sanctions_confirmed_data import SanctionsConfirmedData


T = TypeVar("T", bound="SanctionsConfirmedEvent")


@_attrs_define
class SanctionsConfirmedEvent:
    """the body of a `sanctions.confirmed` delivery

    Attributes:
        data (SanctionsConfirmedData): `sanctions.confirmed`: the compliance team confirmed the match.
        event (Literal['sanctions.confirmed']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: SanctionsConfirmedData
    event: Literal["sanctions.confirmed"]
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
        from ..models.sanctions_confirmed_data import SanctionsConfirmedData

        d = dict(src_dict)
        data = SanctionsConfirmedData.from_dict(d.pop("data"))

        event = cast(Literal["sanctions.confirmed"], d.pop("event"))
        if event != "sanctions.confirmed":
            raise ValueError(
                f"event must match const 'sanctions.confirmed', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        sanctions_confirmed_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return sanctions_confirmed_event
