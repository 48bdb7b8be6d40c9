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
    from ..models.kyc_check_data import KycCheckData


T = TypeVar("T", bound="KycSubmittedEvent")


@_attrs_define
class KycSubmittedEvent:
    """the body of a `kyc.submitted` delivery

    Attributes:
        data (KycCheckData): `kyc.started`, `kyc.submitted`: a verification began, or its documents were sent.
        event (Literal['kyc.submitted']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: KycCheckData
    event: Literal["kyc.submitted"]
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
        from ..models.kyc_check_data import KycCheckData

        d = dict(src_dict)
        data = KycCheckData.from_dict(d.pop("data"))

        event = cast(Literal["kyc.submitted"], d.pop("event"))
        if event != "kyc.submitted":
            raise ValueError(f"event must match const 'kyc.submitted', got '{event}'")

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        kyc_submitted_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return kyc_submitted_event
