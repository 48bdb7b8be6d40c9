from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.screening_switches import ScreeningSwitches


T = TypeVar("T", bound="TenantScreening")


@_attrs_define
class TenantScreening:
    """A tenant's screening switches as set.

    Attributes:
        screening (ScreeningSwitches): Which topics beyond sanctions a tenant screens for. A PEP or an
            adverse-media match opens a due-diligence case and holds nothing.
        tenant_id (str):
    """

    screening: ScreeningSwitches
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        screening = self.screening.to_dict()

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "screening": screening,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.screening_switches import ScreeningSwitches

        d = dict(src_dict)
        screening = ScreeningSwitches.from_dict(d.pop("screening"))

        tenant_id = d.pop("tenant_id")

        tenant_screening = cls(
            screening=screening,
            tenant_id=tenant_id,
        )

        tenant_screening.additional_properties = d
        return tenant_screening

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
