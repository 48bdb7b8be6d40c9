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
    from ..models.due_diligence_data import DueDiligenceData


T = TypeVar("T", bound="ScreeningPepMatchEvent")


@_attrs_define
class ScreeningPepMatchEvent:
    """the body of a `screening.pep_match` delivery

    Attributes:
        data (DueDiligenceData): `screening.pep_match`, `screening.adverse_media_match`: enhanced due
            diligence is required; nothing of the entry matched is carried.
        event (Literal['screening.pep_match']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: DueDiligenceData
    event: Literal["screening.pep_match"]
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
        from ..models.due_diligence_data import DueDiligenceData

        d = dict(src_dict)
        data = DueDiligenceData.from_dict(d.pop("data"))

        event = cast(Literal["screening.pep_match"], d.pop("event"))
        if event != "screening.pep_match":
            raise ValueError(
                f"event must match const 'screening.pep_match', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        screening_pep_match_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return screening_pep_match_event
