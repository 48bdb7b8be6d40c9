from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_state import AccountState
from ..types import UNSET, Unset

T = TypeVar("T", bound="DisabledMember")


@_attrs_define
class DisabledMember:
    """A disabled console account: one disabled by an admin, or one made where
    four-eyes applies and waiting for its admins.

        Attributes:
            email (str):
            person_id (str):
            role (str):
            state (AccountState): Where a console account stands: made, disabled or enabled.
            enable_proposed_by (None | str | Unset): the admin who asked
    """

    email: str
    person_id: str
    role: str
    state: AccountState
    enable_proposed_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        person_id = self.person_id

        role = self.role

        state = self.state.value

        enable_proposed_by: None | str | Unset
        if isinstance(self.enable_proposed_by, Unset):
            enable_proposed_by = UNSET
        else:
            enable_proposed_by = self.enable_proposed_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "person_id": person_id,
                "role": role,
                "state": state,
            }
        )
        if enable_proposed_by is not UNSET:
            field_dict["enable_proposed_by"] = enable_proposed_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        person_id = d.pop("person_id")

        role = d.pop("role")

        state = AccountState(d.pop("state"))

        def _parse_enable_proposed_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        enable_proposed_by = _parse_enable_proposed_by(
            d.pop("enable_proposed_by", UNSET)
        )

        disabled_member = cls(
            email=email,
            person_id=person_id,
            role=role,
            state=state,
            enable_proposed_by=enable_proposed_by,
        )

        disabled_member.additional_properties = d
        return disabled_member

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
