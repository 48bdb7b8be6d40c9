from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.access_export_event_data import AccessExportEventData


T = TypeVar("T", bound="AccessExportEvent")


@_attrs_define
class AccessExportEvent:
    """A webhook event sent to the operator about the player.

    Attributes:
        created_at (str):
        data (AccessExportEventData):
        event (str):
        event_id (str):
    """

    created_at: str
    data: AccessExportEventData
    event: str
    event_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        data = self.data.to_dict()

        event = self.event

        event_id = self.event_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "data": data,
                "event": event,
                "event_id": event_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_export_event_data import AccessExportEventData

        d = dict(src_dict)
        created_at = d.pop("created_at")

        data = AccessExportEventData.from_dict(d.pop("data"))

        event = d.pop("event")

        event_id = d.pop("event_id")

        access_export_event = cls(
            created_at=created_at,
            data=data,
            event=event,
            event_id=event_id,
        )

        access_export_event.additional_properties = d
        return access_export_event

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
