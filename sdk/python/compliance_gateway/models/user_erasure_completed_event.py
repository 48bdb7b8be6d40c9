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
    from ..models.erasure_completed_data import ErasureCompletedData


T = TypeVar("T", bound="UserErasureCompletedEvent")


@_attrs_define
class UserErasureCompletedEvent:
    """the body of a `user.erasure_completed` delivery

    Attributes:
        data (ErasureCompletedData): `user.erasure_completed`: every class of the user's data that the law let go is
            erased.
        event (Literal['user.erasure_completed']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: ErasureCompletedData
    event: Literal["user.erasure_completed"]
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
        from ..models.erasure_completed_data import ErasureCompletedData

        d = dict(src_dict)
        data = ErasureCompletedData.from_dict(d.pop("data"))

        event = cast(Literal["user.erasure_completed"], d.pop("event"))
        if event != "user.erasure_completed":
            raise ValueError(
                f"event must match const 'user.erasure_completed', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        user_erasure_completed_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return user_erasure_completed_event
