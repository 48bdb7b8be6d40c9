from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.register_setting_credentials import RegisterSettingCredentials


T = TypeVar("T", bound="RegisterSetting")


@_attrs_define
class RegisterSetting:
    """One national register of a tenant, as an admin sets it.

    Attributes:
        base_url (str): GAMSTOP's is the v2 endpoint itself (`https://api.gamstop.io/v2`);
            the others' is their API root. Production: https and a public
            address only; sandbox: http on loopback too (the stubs)
        credentials (RegisterSettingCredentials): Spelpaus `{actor_id, api_key}`; GAMSTOP `{api_key}`; ROFUS
            `{operator_id, api_key}`; CRUKS `{client_certificate_pem,
            client_key_pem}`. Sealed at rest, never answered back
        purposes (list[str]): the purposes this register is asked for: `registration`, `login`, `deposit`, `marketing`
        register (str): `spelpaus`, `gamstop`, `rofus` or `cruks`
        on_outage (None | str | Unset): `refuse` (the default: an unavailable register excludes) or `allow_flagged`
    """

    base_url: str
    credentials: RegisterSettingCredentials
    purposes: list[str]
    register: str
    on_outage: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        credentials = self.credentials.to_dict()

        purposes = self.purposes

        register = self.register

        on_outage: None | str | Unset
        if isinstance(self.on_outage, Unset):
            on_outage = UNSET
        else:
            on_outage = self.on_outage

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "base_url": base_url,
                "credentials": credentials,
                "purposes": purposes,
                "register": register,
            }
        )
        if on_outage is not UNSET:
            field_dict["on_outage"] = on_outage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.register_setting_credentials import RegisterSettingCredentials

        d = dict(src_dict)
        base_url = d.pop("base_url")

        credentials = RegisterSettingCredentials.from_dict(d.pop("credentials"))

        purposes = cast(list[str], d.pop("purposes"))

        register = d.pop("register")

        def _parse_on_outage(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        on_outage = _parse_on_outage(d.pop("on_outage", UNSET))

        register_setting = cls(
            base_url=base_url,
            credentials=credentials,
            purposes=purposes,
            register=register,
            on_outage=on_outage,
        )

        register_setting.additional_properties = d
        return register_setting

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
