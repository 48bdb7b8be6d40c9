from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.duration import Duration
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExclusionRegistered")


@_attrs_define
class ExclusionRegistered:
    """The answer to a registration, stored and answered again on a repeat.

    Attributes:
        duration (Duration): how long an exclusion lasts
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        exclusion_id (str):
        expires_at (datetime.datetime | None):
        is_permanent (bool):
        regulator_propagated (bool): whether the exclusion reached the regulator's register
        user_id (str):
        bookmark (None | str | Unset): where the registration stands in the store's history, on a host that
            reads checks from replicas (the edge); a check that echoes it as its
            `bookmark` parameter sees this exclusion at once. Opaque; never stored.
        regulator_eligible (bool | Unset): whether it goes to the regulator's register at the next export
    """

    duration: Duration
    effective_from: datetime.datetime
    exclusion_id: str
    expires_at: datetime.datetime | None
    is_permanent: bool
    regulator_propagated: bool
    user_id: str
    bookmark: None | str | Unset = UNSET
    regulator_eligible: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        duration = self.duration.value

        effective_from = self.effective_from.isoformat()

        exclusion_id = self.exclusion_id

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        is_permanent = self.is_permanent

        regulator_propagated = self.regulator_propagated

        user_id = self.user_id

        bookmark: None | str | Unset
        if isinstance(self.bookmark, Unset):
            bookmark = UNSET
        else:
            bookmark = self.bookmark

        regulator_eligible = self.regulator_eligible

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "duration": duration,
                "effective_from": effective_from,
                "exclusion_id": exclusion_id,
                "expires_at": expires_at,
                "is_permanent": is_permanent,
                "regulator_propagated": regulator_propagated,
                "user_id": user_id,
            }
        )
        if bookmark is not UNSET:
            field_dict["bookmark"] = bookmark
        if regulator_eligible is not UNSET:
            field_dict["regulator_eligible"] = regulator_eligible

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        duration = Duration(d.pop("duration"))

        effective_from = datetime.datetime.fromisoformat(d.pop("effective_from"))

        exclusion_id = d.pop("exclusion_id")

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        is_permanent = d.pop("is_permanent")

        regulator_propagated = d.pop("regulator_propagated")

        user_id = d.pop("user_id")

        def _parse_bookmark(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bookmark = _parse_bookmark(d.pop("bookmark", UNSET))

        regulator_eligible = d.pop("regulator_eligible", UNSET)

        exclusion_registered = cls(
            duration=duration,
            effective_from=effective_from,
            exclusion_id=exclusion_id,
            expires_at=expires_at,
            is_permanent=is_permanent,
            regulator_propagated=regulator_propagated,
            user_id=user_id,
            bookmark=bookmark,
            regulator_eligible=regulator_eligible,
        )

        exclusion_registered.additional_properties = d
        return exclusion_registered

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
