from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DailySnapshot")


@_attrs_define
class DailySnapshot:
    """What the daily snapshot held when it was taken.

    Attributes:
        active_count (int):
        snapshot_date (str):
        taken_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    active_count: int
    snapshot_date: str
    taken_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active_count = self.active_count

        snapshot_date = self.snapshot_date

        taken_at = self.taken_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active_count": active_count,
                "snapshot_date": snapshot_date,
                "taken_at": taken_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        active_count = d.pop("active_count")

        snapshot_date = d.pop("snapshot_date")

        taken_at = datetime.datetime.fromisoformat(d.pop("taken_at"))

        daily_snapshot = cls(
            active_count=active_count,
            snapshot_date=snapshot_date,
            taken_at=taken_at,
        )

        daily_snapshot.additional_properties = d
        return daily_snapshot

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
