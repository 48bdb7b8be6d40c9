from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.register_view import RegisterView


T = TypeVar("T", bound="TenantRegisters")


@_attrs_define
class TenantRegisters:
    """
    Attributes:
        registers (list[RegisterView]):
        tenant_id (str):
    """

    registers: list[RegisterView]
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        registers = []
        for registers_item_data in self.registers:
            registers_item = registers_item_data.to_dict()
            registers.append(registers_item)

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "registers": registers,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.register_view import RegisterView

        d = dict(src_dict)
        registers = []
        _registers = d.pop("registers")
        for registers_item_data in _registers:
            registers_item = RegisterView.from_dict(registers_item_data)

            registers.append(registers_item)

        tenant_id = d.pop("tenant_id")

        tenant_registers = cls(
            registers=registers,
            tenant_id=tenant_id,
        )

        tenant_registers.additional_properties = d
        return tenant_registers

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
