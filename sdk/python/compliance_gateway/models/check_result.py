from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.duration import Duration
from ..types import UNSET, Unset

T = TypeVar("T", bound="CheckResult")


@_attrs_define
class CheckResult:
    """Whether an address is excluded; with the most restrictive exclusion when it is.

    Attributes:
        is_excluded (bool):
        duration (Duration | Unset): how long an exclusion lasts
        exclusion_id (None | str | Unset):
        expires_at (datetime.datetime | None | Unset):
        is_permanent (bool | None | Unset):
        source (None | str | Unset):
    """

    is_excluded: bool
    duration: Duration | Unset = UNSET
    exclusion_id: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    is_permanent: bool | None | Unset = UNSET
    source: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        is_excluded = self.is_excluded

        duration: str | Unset = UNSET
        if not isinstance(self.duration, Unset):
            duration = self.duration.value

        exclusion_id: None | str | Unset
        if isinstance(self.exclusion_id, Unset):
            exclusion_id = UNSET
        else:
            exclusion_id = self.exclusion_id

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        is_permanent: bool | None | Unset
        if isinstance(self.is_permanent, Unset):
            is_permanent = UNSET
        else:
            is_permanent = self.is_permanent

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "is_excluded": is_excluded,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration
        if exclusion_id is not UNSET:
            field_dict["exclusion_id"] = exclusion_id
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if is_permanent is not UNSET:
            field_dict["is_permanent"] = is_permanent
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        is_excluded = d.pop("is_excluded")

        _duration = d.pop("duration", UNSET)
        duration: Duration | Unset
        if isinstance(_duration, Unset):
            duration = UNSET
        else:
            duration = Duration(_duration)

        def _parse_exclusion_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        exclusion_id = _parse_exclusion_id(d.pop("exclusion_id", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_is_permanent(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_permanent = _parse_is_permanent(d.pop("is_permanent", UNSET))

        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        check_result = cls(
            is_excluded=is_excluded,
            duration=duration,
            exclusion_id=exclusion_id,
            expires_at=expires_at,
            is_permanent=is_permanent,
            source=source,
        )

        check_result.additional_properties = d
        return check_result

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
