from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_kind import EventKind

if TYPE_CHECKING:
    from ..models.timeline_entry_detail import TimelineEntryDetail


T = TypeVar("T", bound="TimelineEntry")


@_attrs_define
class TimelineEntry:
    """
    Attributes:
        actor (str): a person's id (`per_…`), a key's id, or `system`
        at (str):
        detail (TimelineEntryDetail): the comment, the outcome and reason, or the assignee
        event_id (str):
        kind (EventKind): What happened to a case, in its timeline.
    """

    actor: str
    at: str
    detail: TimelineEntryDetail
    event_id: str
    kind: EventKind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        at = self.at

        detail = self.detail.to_dict()

        event_id = self.event_id

        kind = self.kind.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "at": at,
                "detail": detail,
                "event_id": event_id,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.timeline_entry_detail import TimelineEntryDetail

        d = dict(src_dict)
        actor = d.pop("actor")

        at = d.pop("at")

        detail = TimelineEntryDetail.from_dict(d.pop("detail"))

        event_id = d.pop("event_id")

        kind = EventKind(d.pop("kind"))

        timeline_entry = cls(
            actor=actor,
            at=at,
            detail=detail,
            event_id=event_id,
            kind=kind,
        )

        timeline_entry.additional_properties = d
        return timeline_entry

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
