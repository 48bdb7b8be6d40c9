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
    from ..models.limit_breach_data import LimitBreachData


T = TypeVar("T", bound="LimitBreachAttemptEvent")


@_attrs_define
class LimitBreachAttemptEvent:
    """the body of a `limit.breach_attempt` delivery

    Attributes:
        data (LimitBreachData): `limit.breach_attempt`: a deposit was refused for going over a limit.
        event (Literal['limit.breach_attempt']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: LimitBreachData
    event: Literal["limit.breach_attempt"]
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
        from ..models.limit_breach_data import LimitBreachData

        d = dict(src_dict)
        data = LimitBreachData.from_dict(d.pop("data"))

        event = cast(Literal["limit.breach_attempt"], d.pop("event"))
        if event != "limit.breach_attempt":
            raise ValueError(
                f"event must match const 'limit.breach_attempt', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        limit_breach_attempt_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return limit_breach_attempt_event
