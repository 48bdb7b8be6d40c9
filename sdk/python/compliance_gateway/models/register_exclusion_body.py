from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.duration import Duration
from ..models.exclusion_reason import ExclusionReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="RegisterExclusionBody")


@_attrs_define
class RegisterExclusionBody:
    """at least one of email and phone

    Attributes:
        duration (Duration): how long an exclusion lasts
        initiated_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        reason (ExclusionReason): Who asked for an exclusion.
        user_id (str):
        email (None | str | Unset):
        phone (None | str | Unset):
    """

    duration: Duration
    initiated_at: datetime.datetime
    reason: ExclusionReason
    user_id: str
    email: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        duration = self.duration.value

        initiated_at = self.initiated_at.isoformat()

        reason = self.reason.value

        user_id = self.user_id

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "duration": duration,
                "initiated_at": initiated_at,
                "reason": reason,
                "user_id": user_id,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        duration = Duration(d.pop("duration"))

        initiated_at = datetime.datetime.fromisoformat(d.pop("initiated_at"))

        reason = ExclusionReason(d.pop("reason"))

        user_id = d.pop("user_id")

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        register_exclusion_body = cls(
            duration=duration,
            initiated_at=initiated_at,
            reason=reason,
            user_id=user_id,
            email=email,
            phone=phone,
        )

        register_exclusion_body.additional_properties = d
        return register_exclusion_body

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
