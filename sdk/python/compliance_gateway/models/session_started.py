from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SessionStarted")


@_attrs_define
class SessionStarted:
    """
    Attributes:
        device_token (str): this device's token: sent with its next sign-ins (`device_token`), its failures are counted
            apart
            from strangers', whose failures never lock it out; shown once, unused for 90 days it is forgotten
        email (str):
        environment (str):
        idle_timeout_seconds (int):
        must_change_password (bool): until the one-time password is changed, only the password change is allowed
        person_id (str):
        role (str):
        session_token (str): sent as `Authorization: Bearer <session_token>`; shown once
    """

    device_token: str
    email: str
    environment: str
    idle_timeout_seconds: int
    must_change_password: bool
    person_id: str
    role: str
    session_token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device_token = self.device_token

        email = self.email

        environment = self.environment

        idle_timeout_seconds = self.idle_timeout_seconds

        must_change_password = self.must_change_password

        person_id = self.person_id

        role = self.role

        session_token = self.session_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device_token": device_token,
                "email": email,
                "environment": environment,
                "idle_timeout_seconds": idle_timeout_seconds,
                "must_change_password": must_change_password,
                "person_id": person_id,
                "role": role,
                "session_token": session_token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device_token = d.pop("device_token")

        email = d.pop("email")

        environment = d.pop("environment")

        idle_timeout_seconds = d.pop("idle_timeout_seconds")

        must_change_password = d.pop("must_change_password")

        person_id = d.pop("person_id")

        role = d.pop("role")

        session_token = d.pop("session_token")

        session_started = cls(
            device_token=device_token,
            email=email,
            environment=environment,
            idle_timeout_seconds=idle_timeout_seconds,
            must_change_password=must_change_password,
            person_id=person_id,
            role=role,
            session_token=session_token,
        )

        session_started.additional_properties = d
        return session_started

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
