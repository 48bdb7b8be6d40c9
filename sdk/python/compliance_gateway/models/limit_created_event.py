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
    from ..models.limit_changed_data import LimitChangedData


T = TypeVar("T", bound="LimitCreatedEvent")


@_attrs_define
class LimitCreatedEvent:
    """the body of a `limit.created` delivery

    Attributes:
        data (LimitChangedData): `limit.created`, `limit.decreased`: a deposit limit set or lowered
            (an increase waits out its cooling-off period, then `limit.activated`).
        event (Literal['limit.created']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: LimitChangedData
    event: Literal["limit.created"]
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
        from ..models.limit_changed_data import LimitChangedData

        d = dict(src_dict)
        data = LimitChangedData.from_dict(d.pop("data"))

        event = cast(Literal["limit.created"], d.pop("event"))
        if event != "limit.created":
            raise ValueError(f"event must match const 'limit.created', got '{event}'")

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        limit_created_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return limit_created_event
