from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.daily_snapshot import DailySnapshot
    from ..models.exclusion_row import ExclusionRow


T = TypeVar("T", bound="SnapshotPage")


@_attrs_define
class SnapshotPage:
    """A page of the shared list.

    Attributes:
        exclusions (list[ExclusionRow]):
        has_more (bool):
        next_cursor (None | str):
        daily_snapshot (DailySnapshot | None | Unset):
        generated_at (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
    """

    exclusions: list[ExclusionRow]
    has_more: bool
    next_cursor: None | str
    daily_snapshot: DailySnapshot | None | Unset = UNSET
    generated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.daily_snapshot import DailySnapshot

        exclusions = []
        for exclusions_item_data in self.exclusions:
            exclusions_item = exclusions_item_data.to_dict()
            exclusions.append(exclusions_item)

        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        daily_snapshot: dict[str, Any] | None | Unset
        if isinstance(self.daily_snapshot, Unset):
            daily_snapshot = UNSET
        elif isinstance(self.daily_snapshot, DailySnapshot):
            daily_snapshot = self.daily_snapshot.to_dict()
        else:
            daily_snapshot = self.daily_snapshot

        generated_at: str | Unset = UNSET
        if not isinstance(self.generated_at, Unset):
            generated_at = self.generated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exclusions": exclusions,
                "has_more": has_more,
                "next_cursor": next_cursor,
            }
        )
        if daily_snapshot is not UNSET:
            field_dict["daily_snapshot"] = daily_snapshot
        if generated_at is not UNSET:
            field_dict["generated_at"] = generated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.daily_snapshot import DailySnapshot
        from ..models.exclusion_row import ExclusionRow

        d = dict(src_dict)
        exclusions = []
        _exclusions = d.pop("exclusions")
        for exclusions_item_data in _exclusions:
            exclusions_item = ExclusionRow.from_dict(exclusions_item_data)

            exclusions.append(exclusions_item)

        has_more = d.pop("has_more")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_daily_snapshot(data: object) -> DailySnapshot | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                daily_snapshot_type_0 = DailySnapshot.from_dict(data)

                return daily_snapshot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DailySnapshot | None | Unset, data)

        daily_snapshot = _parse_daily_snapshot(d.pop("daily_snapshot", UNSET))

        _generated_at = d.pop("generated_at", UNSET)
        generated_at: datetime.datetime | Unset
        if isinstance(_generated_at, Unset):
            generated_at = UNSET
        else:
            generated_at = datetime.datetime.fromisoformat(_generated_at)

        snapshot_page = cls(
            exclusions=exclusions,
            has_more=has_more,
            next_cursor=next_cursor,
            daily_snapshot=daily_snapshot,
            generated_at=generated_at,
        )

        snapshot_page.additional_properties = d
        return snapshot_page

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
