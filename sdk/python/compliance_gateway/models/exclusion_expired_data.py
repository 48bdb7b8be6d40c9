from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.duration import Duration

T = TypeVar("T", bound="ExclusionExpiredData")


@_attrs_define
class ExclusionExpiredData:
    """`exclusion.expired`: a timed exclusion ran out.

    Attributes:
        duration (Duration): how long an exclusion lasts
        exclusion_id (str):
        expired_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        source (str):
        user_email (None | str): the e-mail address; null when the player was erased before it was sent (the
            `exclusion_id` names it)
        user_phone (None | str): the phone; null when the player was erased before it was sent
    """

    duration: Duration
    exclusion_id: str
    expired_at: datetime.datetime
    source: str
    user_email: None | str
    user_phone: None | str

    def to_dict(self) -> dict[str, Any]:
        duration = self.duration.value

        exclusion_id = self.exclusion_id

        expired_at = self.expired_at.isoformat()

        source = self.source

        user_email: None | str
        user_email = self.user_email

        user_phone: None | str
        user_phone = self.user_phone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "duration": duration,
                "exclusion_id": exclusion_id,
                "expired_at": expired_at,
                "source": source,
                "user_email": user_email,
                "user_phone": user_phone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        duration = Duration(d.pop("duration"))

        exclusion_id = d.pop("exclusion_id")

        expired_at = datetime.datetime.fromisoformat(d.pop("expired_at"))

        source = d.pop("source")

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

        exclusion_expired_data = cls(
            duration=duration,
            exclusion_id=exclusion_id,
            expired_at=expired_at,
            source=source,
            user_email=user_email,
            user_phone=user_phone,
        )

        return exclusion_expired_data
