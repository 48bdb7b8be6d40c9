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
    from ..models.kyc_approved_data import KycApprovedData


T = TypeVar("T", bound="KycApprovedEvent")


@_attrs_define
class KycApprovedEvent:
    """the body of a `kyc.approved` delivery

    Attributes:
        data (KycApprovedData): `kyc.approved`: the user is verified to a tier, and the check's held
            withdrawal is released (`release_withdrawal_id` names it), unless
            another hold still stands (the reason is not said): then
            `release_withdrawal_id` is null and the withdrawal is cancelled (its
            `withdrawal_status` is `cancelled`, it counts toward no total); the
            operator asks again with `POST /v1/kyc/start` and is answered under the
            holds then.
        event (Literal['kyc.approved']):
        event_id (str): the event's id, also its `webhook-id` header: the same on every retry
        timestamp (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    data: KycApprovedData
    event: Literal["kyc.approved"]
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
        from ..models.kyc_approved_data import KycApprovedData

        d = dict(src_dict)
        data = KycApprovedData.from_dict(d.pop("data"))

        event = cast(Literal["kyc.approved"], d.pop("event"))
        if event != "kyc.approved":
            raise ValueError(f"event must match const 'kyc.approved', got '{event}'")

        event_id = d.pop("event_id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        kyc_approved_event = cls(
            data=data,
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        return kyc_approved_event
