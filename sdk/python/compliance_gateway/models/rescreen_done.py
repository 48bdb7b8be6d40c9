from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RescreenDone")


@_attrs_define
class RescreenDone:
    """
    Attributes:
        new_hits (int):
        rescreened (int):
        tenant_id (str):
    """

    new_hits: int
    rescreened: int
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        new_hits = self.new_hits

        rescreened = self.rescreened

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "new_hits": new_hits,
                "rescreened": rescreened,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        new_hits = d.pop("new_hits")

        rescreened = d.pop("rescreened")

        tenant_id = d.pop("tenant_id")

        rescreen_done = cls(
            new_hits=new_hits,
            rescreened=rescreened,
            tenant_id=tenant_id,
        )

        rescreen_done.additional_properties = d
        return rescreen_done

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
