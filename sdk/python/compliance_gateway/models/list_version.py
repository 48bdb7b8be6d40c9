from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ListVersion")


@_attrs_define
class ListVersion:
    """An imported list version.

    Attributes:
        activated_at (datetime.datetime | None):
        changed_entries (int): entities added, changed or delisted since the version before
        entry_count (int):
        format_ (str):
        imported_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        list_id (str):
        rescreen_pending (bool): users still to be re-screened against the version's changes
        source (str):
        status (str):
        version (str):
    """

    activated_at: datetime.datetime | None
    changed_entries: int
    entry_count: int
    format_: str
    imported_at: datetime.datetime
    list_id: str
    rescreen_pending: bool
    source: str
    status: str
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        activated_at: None | str
        if isinstance(self.activated_at, datetime.datetime):
            activated_at = self.activated_at.isoformat()
        else:
            activated_at = self.activated_at

        changed_entries = self.changed_entries

        entry_count = self.entry_count

        format_ = self.format_

        imported_at = self.imported_at.isoformat()

        list_id = self.list_id

        rescreen_pending = self.rescreen_pending

        source = self.source

        status = self.status

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "activated_at": activated_at,
                "changed_entries": changed_entries,
                "entry_count": entry_count,
                "format": format_,
                "imported_at": imported_at,
                "list_id": list_id,
                "rescreen_pending": rescreen_pending,
                "source": source,
                "status": status,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_activated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                activated_at_type_0 = datetime.datetime.fromisoformat(data)

                return activated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        activated_at = _parse_activated_at(d.pop("activated_at"))

        changed_entries = d.pop("changed_entries")

        entry_count = d.pop("entry_count")

        format_ = d.pop("format")

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

        list_id = d.pop("list_id")

        rescreen_pending = d.pop("rescreen_pending")

        source = d.pop("source")

        status = d.pop("status")

        version = d.pop("version")

        list_version = cls(
            activated_at=activated_at,
            changed_entries=changed_entries,
            entry_count=entry_count,
            format_=format_,
            imported_at=imported_at,
            list_id=list_id,
            rescreen_pending=rescreen_pending,
            source=source,
            status=status,
            version=version,
        )

        list_version.additional_properties = d
        return list_version

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
