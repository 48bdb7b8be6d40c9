from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.register_answer import RegisterAnswer


T = TypeVar("T", bound="RegisterCheck")


@_attrs_define
class RegisterCheck:
    """
    Attributes:
        check_id (str):
        excluded (bool): the player may not play (for a marketing check: may not be marketed to)
        marketing_allowed (bool):
        registers (list[RegisterAnswer]): each register asked: the shared register first, then those the tenant
            configured for the purpose
    """

    check_id: str
    excluded: bool
    marketing_allowed: bool
    registers: list[RegisterAnswer]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        check_id = self.check_id

        excluded = self.excluded

        marketing_allowed = self.marketing_allowed

        registers = []
        for registers_item_data in self.registers:
            registers_item = registers_item_data.to_dict()
            registers.append(registers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "check_id": check_id,
                "excluded": excluded,
                "marketing_allowed": marketing_allowed,
                "registers": registers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.register_answer import RegisterAnswer

        d = dict(src_dict)
        check_id = d.pop("check_id")

        excluded = d.pop("excluded")

        marketing_allowed = d.pop("marketing_allowed")

        registers = []
        _registers = d.pop("registers")
        for registers_item_data in _registers:
            registers_item = RegisterAnswer.from_dict(registers_item_data)

            registers.append(registers_item)

        register_check = cls(
            check_id=check_id,
            excluded=excluded,
            marketing_allowed=marketing_allowed,
            registers=registers,
        )

        register_check.additional_properties = d
        return register_check

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
