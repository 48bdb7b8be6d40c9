from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.register_identity import RegisterIdentity


T = TypeVar("T", bound="CheckRegistersBody")


@_attrs_define
class CheckRegistersBody:
    """The body of `POST /v1/exclusions/check`.

    Attributes:
        purpose (str): `registration`, `login`, `deposit` or `marketing`
        user_id (str):
        identity (None | RegisterIdentity | Unset):
    """

    purpose: str
    user_id: str
    identity: None | RegisterIdentity | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.register_identity import RegisterIdentity

        purpose = self.purpose

        user_id = self.user_id

        identity: dict[str, Any] | None | Unset
        if isinstance(self.identity, Unset):
            identity = UNSET
        elif isinstance(self.identity, RegisterIdentity):
            identity = self.identity.to_dict()
        else:
            identity = self.identity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "purpose": purpose,
                "user_id": user_id,
            }
        )
        if identity is not UNSET:
            field_dict["identity"] = identity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.register_identity import RegisterIdentity

        d = dict(src_dict)
        purpose = d.pop("purpose")

        user_id = d.pop("user_id")

        def _parse_identity(data: object) -> None | RegisterIdentity | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                identity_type_0 = RegisterIdentity.from_dict(data)

                return identity_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RegisterIdentity | Unset, data)

        identity = _parse_identity(d.pop("identity", UNSET))

        check_registers_body = cls(
            purpose=purpose,
            user_id=user_id,
            identity=identity,
        )

        check_registers_body.additional_properties = d
        return check_registers_body

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
