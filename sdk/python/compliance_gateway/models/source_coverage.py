from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SourceCoverage")


@_attrs_define
class SourceCoverage:
    """A required source as production has it.

    Attributes:
        entry_count (int | None):
        last_refreshed_at (datetime.datetime | None):
        source (str):
        stale (bool): not refreshed within the freshness window (a missing source is not stale but missing)
        version (None | str): the active version; none when the source was never imported
    """

    entry_count: int | None
    last_refreshed_at: datetime.datetime | None
    source: str
    stale: bool
    version: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry_count: int | None
        entry_count = self.entry_count

        last_refreshed_at: None | str
        if isinstance(self.last_refreshed_at, datetime.datetime):
            last_refreshed_at = self.last_refreshed_at.isoformat()
        else:
            last_refreshed_at = self.last_refreshed_at

        source = self.source

        stale = self.stale

        version: None | str
        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry_count": entry_count,
                "last_refreshed_at": last_refreshed_at,
                "source": source,
                "stale": stale,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_entry_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        entry_count = _parse_entry_count(d.pop("entry_count"))

        def _parse_last_refreshed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_refreshed_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_refreshed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_refreshed_at = _parse_last_refreshed_at(d.pop("last_refreshed_at"))

        source = d.pop("source")

        stale = d.pop("stale")

        def _parse_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        version = _parse_version(d.pop("version"))

        source_coverage = cls(
            entry_count=entry_count,
            last_refreshed_at=last_refreshed_at,
            source=source,
            stale=stale,
            version=version,
        )

        source_coverage.additional_properties = d
        return source_coverage

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
