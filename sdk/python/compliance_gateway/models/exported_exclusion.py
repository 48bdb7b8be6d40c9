from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.duration import Duration

T = TypeVar("T", bound="ExportedExclusion")


@_attrs_define
class ExportedExclusion:
    """An exclusion as the regulator's register takes it.

    Attributes:
        duration (Duration): how long an exclusion lasts
        effective_from (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        exclusion_id (str):
        expires_at (datetime.datetime | None):
        user_email (None | str):
        user_phone (None | str):
    """

    duration: Duration
    effective_from: datetime.datetime
    exclusion_id: str
    expires_at: datetime.datetime | None
    user_email: None | str
    user_phone: None | str
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

        user_email: None | str
        user_email = self.user_email

        user_phone: None | str
        user_phone = self.user_phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "duration": duration,
                "effective_from": effective_from,
                "exclusion_id": exclusion_id,
                "expires_at": expires_at,
                "user_email": user_email,
                "user_phone": user_phone,
            }
        )

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

        def _parse_user_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_email = _parse_user_email(d.pop("user_email"))

        def _parse_user_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_phone = _parse_user_phone(d.pop("user_phone"))

        exported_exclusion = cls(
            duration=duration,
            effective_from=effective_from,
            exclusion_id=exclusion_id,
            expires_at=expires_at,
            user_email=user_email,
            user_phone=user_phone,
        )

        exported_exclusion.additional_properties = d
        return exported_exclusion

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
