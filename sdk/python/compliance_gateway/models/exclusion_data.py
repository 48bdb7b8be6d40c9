from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.duration import Duration
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExclusionData")


@_attrs_define
class ExclusionData:
    """`exclusion.created`, `exclusion.permanent`, `exclusion.kgc_synced`: a
    self-exclusion every operator of the environment must honour; or
    (`exclusion.created` with a national register as its `source`) one of
    the operator's own players whom a national register newly found
    excluded, sent to that operator alone.

        Attributes:
            duration (Duration | None):
            exclusion_id (str): the shared register's exclusion; for a national register, the check that found the player
                excluded
                (`GET /v1/registers/checks`)
            expires_at (datetime.datetime | None):
            is_permanent (bool):
            source (str): where it is registered: `operator` or `regulator_comprehensive` (the shared register), or the
                national
                register that found the player excluded: `spelpaus`, `gamstop`, `rofus`, `cruks`
            user_email (None | str): the excluded e-mail address; sent after the player's erasure, the address as the list
                compares it (its
                mailbox: no `+tag`), or null once the exclusion ended
            user_phone (None | str): the excluded phone (E.164 digits); null once an erased player's exclusion ended
            user_id (None | str | Unset): only for a national register's finding: the operator's player it found
    """

    duration: Duration | None
    exclusion_id: str
    expires_at: datetime.datetime | None
    is_permanent: bool
    source: str
    user_email: None | str
    user_phone: None | str
    user_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        duration: None | str
        if isinstance(self.duration, Duration):
            duration = self.duration.value
        else:
            duration = self.duration

        exclusion_id = self.exclusion_id

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        is_permanent = self.is_permanent

        source = self.source

        user_email: None | str
        user_email = self.user_email

        user_phone: None | str
        user_phone = self.user_phone

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "duration": duration,
                "exclusion_id": exclusion_id,
                "expires_at": expires_at,
                "is_permanent": is_permanent,
                "source": source,
                "user_email": user_email,
                "user_phone": user_phone,
            }
        )
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_duration(data: object) -> Duration | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                duration_type_0 = Duration(data)

                return duration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Duration | None, data)

        duration = _parse_duration(d.pop("duration"))

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

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        exclusion_data = cls(
            duration=duration,
            exclusion_id=exclusion_id,
            expires_at=expires_at,
            is_permanent=is_permanent,
            source=source,
            user_email=user_email,
            user_phone=user_phone,
            user_id=user_id,
        )

        return exclusion_data
