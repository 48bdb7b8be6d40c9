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
    from ..models.account_frozen_data import AccountFrozenData


T = TypeVar("T", bound="SanctionsAccountFrozenEvent")


@_attrs_define
class SanctionsAccountFrozenEvent:
    """the body of a `sanctions.account_frozen` delivery

    Attributes:
        data (AccountFrozenData): `sanctions.account_frozen`: the user's funds are frozen after a confirmed match.
        event (Literal['sanctions.account_frozen']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: AccountFrozenData
    event: Literal["sanctions.account_frozen"]
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
        from ..models.account_frozen_data import AccountFrozenData

        d = dict(src_dict)
        data = AccountFrozenData.from_dict(d.pop("data"))

        event = cast(Literal["sanctions.account_frozen"], d.pop("event"))
        if event != "sanctions.account_frozen":
            raise ValueError(
                f"event must match const 'sanctions.account_frozen', got '{event}'"
            )

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        sanctions_account_frozen_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return sanctions_account_frozen_event
