from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.register_setting import RegisterSetting


T = TypeVar("T", bound="SetTenantRegistersBody")


@_attrs_define
class SetTenantRegistersBody:
    """The body of `PUT /v1/admin/tenants/{tenant_id}/registers`: the whole set, replacing the one before.

    Attributes:
        registers (list[RegisterSetting]):
    """

    registers: list[RegisterSetting]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        registers = []
        for registers_item_data in self.registers:
            registers_item = registers_item_data.to_dict()
            registers.append(registers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "registers": registers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.register_setting import RegisterSetting

        d = dict(src_dict)
        registers = []
        _registers = d.pop("registers")
        for registers_item_data in _registers:
            registers_item = RegisterSetting.from_dict(registers_item_data)

            registers.append(registers_item)

        set_tenant_registers_body = cls(
            registers=registers,
        )

        set_tenant_registers_body.additional_properties = d
        return set_tenant_registers_body

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
