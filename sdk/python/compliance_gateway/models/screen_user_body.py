from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScreenUserBody")


@_attrs_define
class ScreenUserBody:
    """The body of `POST /v1/sanctions/screen`: who signed up.

    Attributes:
        date_of_birth (datetime.date): YYYY-MM-DD, in the past
        email (str): an e-mail address; compared without case, its domain in IDNA's ASCII form (Unicode and punycode
            alike), and folded by the providers' documented alias rules: Gmail's dots and `+tag` dropped and googlemail.com
            read as gmail.com, a `+tag` dropped at Fastmail and Proton; any other address compared as delivered
        first_name (str):
        last_name (str):
        nationality (str):
        user_id (str):
    """

    date_of_birth: datetime.date
    email: str
    first_name: str
    last_name: str
    nationality: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        date_of_birth = self.date_of_birth.isoformat()

        email = self.email

        first_name = self.first_name

        last_name = self.last_name

        nationality = self.nationality

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date_of_birth": date_of_birth,
                "email": email,
                "first_name": first_name,
                "last_name": last_name,
                "nationality": nationality,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date_of_birth = datetime.date.fromisoformat(d.pop("date_of_birth"))

        email = d.pop("email")

        first_name = d.pop("first_name")

        last_name = d.pop("last_name")

        nationality = d.pop("nationality")

        user_id = d.pop("user_id")

        screen_user_body = cls(
            date_of_birth=date_of_birth,
            email=email,
            first_name=first_name,
            last_name=last_name,
            nationality=nationality,
            user_id=user_id,
        )

        screen_user_body.additional_properties = d
        return screen_user_body

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
