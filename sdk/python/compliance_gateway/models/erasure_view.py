from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.erasure_state import ErasureState

if TYPE_CHECKING:
    from ..models.held_class import HeldClass


T = TypeVar("T", bound="ErasureView")


@_attrs_define
class ErasureView:
    """An erasure job.

    Attributes:
        erased (list[str]): the classes erased
        erasure_id (str):
        held (list[HeldClass]): the classes a law keeps, each with its date and basis
        state (ErasureState): A job's state.
    """

    erased: list[str]
    erasure_id: str
    held: list[HeldClass]
    state: ErasureState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        erased = self.erased

        erasure_id = self.erasure_id

        held = []
        for held_item_data in self.held:
            held_item = held_item_data.to_dict()
            held.append(held_item)

        state = self.state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "erased": erased,
                "erasure_id": erasure_id,
                "held": held,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.held_class import HeldClass

        d = dict(src_dict)
        erased = cast(list[str], d.pop("erased"))

        erasure_id = d.pop("erasure_id")

        held = []
        _held = d.pop("held")
        for held_item_data in _held:
            held_item = HeldClass.from_dict(held_item_data)

            held.append(held_item)

        state = ErasureState(d.pop("state"))

        erasure_view = cls(
            erased=erased,
            erasure_id=erasure_id,
            held=held,
            state=state,
        )

        erasure_view.additional_properties = d
        return erasure_view

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
