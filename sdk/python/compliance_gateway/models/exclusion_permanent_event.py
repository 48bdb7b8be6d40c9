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
    from ..models.exclusion_data import ExclusionData


T = TypeVar("T", bound="ExclusionPermanentEvent")


@_attrs_define
class ExclusionPermanentEvent:
    """the body of a `exclusion.permanent` delivery

    Attributes:
        data (ExclusionData): `exclusion.created`, `exclusion.permanent`, `exclusion.kgc_synced`: a
            self-exclusion every operator of the environment must honour; or
            (`exclusion.created` with a national register as its `source`) one of
            the operator's own players whom a national register newly found
            excluded, sent to that operator alone.
        event (Literal['exclusion.permanent']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: ExclusionData
    event: Literal["exclusion.permanent"]
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
        from ..models.exclusion_data import ExclusionData

        d = dict(src_dict)
        data = ExclusionData.from_dict(d.pop("data"))

        event = cast(Literal["exclusion.permanent"], d.pop("event"))
        if event != "exclusion.permanent":
            raise ValueError(
                f"event must match const 'exclusion.permanent', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        exclusion_permanent_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return exclusion_permanent_event
