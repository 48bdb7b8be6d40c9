from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.get_readiness_response_200_status import GetReadinessResponse200Status

if TYPE_CHECKING:
    from ..models.checks import Checks


T = TypeVar("T", bound="GetReadinessResponse200")


@_attrs_define
class GetReadinessResponse200:
    """
    Attributes:
        checks (Checks):
        status (GetReadinessResponse200Status):
    """

    checks: Checks
    status: GetReadinessResponse200Status
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checks = self.checks.to_dict()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checks": checks,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.checks import Checks

        d = dict(src_dict)
        checks = Checks.from_dict(d.pop("checks"))

        status = GetReadinessResponse200Status(d.pop("status"))

        get_readiness_response_200 = cls(
            checks=checks,
            status=status,
        )

        get_readiness_response_200.additional_properties = d
        return get_readiness_response_200

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
