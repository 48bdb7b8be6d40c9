from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus
from ..models.event_name import EventName

if TYPE_CHECKING:
    from ..models.delivery_attempt import DeliveryAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        attempt_count (int):
        attempts (list[DeliveryAttempt]):
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        delivery_id (str):
        event (EventName): the name of an event
        event_id (str):
        last_error (None | str):
        last_status_code (int | None):
        next_attempt_at (datetime.datetime | None):
        status (DeliveryStatus): Where a delivery stands.
    """

    attempt_count: int
    attempts: list[DeliveryAttempt]
    created_at: datetime.datetime
    delivery_id: str
    event: EventName
    event_id: str
    last_error: None | str
    last_status_code: int | None
    next_attempt_at: datetime.datetime | None
    status: DeliveryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        delivery_id = self.delivery_id

        event = self.event.value

        event_id = self.event_id

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt_count": attempt_count,
                "attempts": attempts,
                "created_at": created_at,
                "delivery_id": delivery_id,
                "event": event,
                "event_id": event_id,
                "last_error": last_error,
                "last_status_code": last_status_code,
                "next_attempt_at": next_attempt_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_attempt import DeliveryAttempt

        d = dict(src_dict)
        attempt_count = d.pop("attempt_count")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = DeliveryAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery_id = d.pop("delivery_id")

        event = EventName(d.pop("event"))

        event_id = d.pop("event_id")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        status = DeliveryStatus(d.pop("status"))

        webhook_delivery = cls(
            attempt_count=attempt_count,
            attempts=attempts,
            created_at=created_at,
            delivery_id=delivery_id,
            event=event,
            event_id=event_id,
            last_error=last_error,
            last_status_code=last_status_code,
            next_attempt_at=next_attempt_at,
            status=status,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
