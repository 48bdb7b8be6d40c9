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
    from ..models.sanctions_cleared_data import SanctionsClearedData


T = TypeVar("T", bound="SanctionsClearedEvent")


@_attrs_define
class SanctionsClearedEvent:
    """the body of a `sanctions.cleared` delivery

    Attributes:
        data (SanctionsClearedData): `sanctions.cleared`: the compliance team dismissed the case.
        event (Literal['sanctions.cleared']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: SanctionsClearedData
    event: Literal["sanctions.cleared"]
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
        from ..models.sanctions_cleared_data import SanctionsClearedData

        d = dict(src_dict)
        data = SanctionsClearedData.from_dict(d.pop("data"))

        event = cast(Literal["sanctions.cleared"], d.pop("event"))
        if event != "sanctions.cleared":
            raise ValueError(
                f"event must match const 'sanctions.cleared', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        sanctions_cleared_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return sanctions_cleared_event
