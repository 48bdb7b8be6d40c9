from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccessExportScreening")


@_attrs_define
class AccessExportScreening:
    """When the player was screened. Its standing is never carried: a standing
    shown only when clear would tell the others theirs by its absence.

        Attributes:
            last_screened_at (str):
            screen_id (str):
            verified_tier (str): the verified KYC tier, and since when
            verified_at (None | str | Unset):
    """

    last_screened_at: str
    screen_id: str
    verified_tier: str
    verified_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        last_screened_at = self.last_screened_at

        screen_id = self.screen_id

        verified_tier = self.verified_tier

        verified_at: None | str | Unset
        if isinstance(self.verified_at, Unset):
            verified_at = UNSET
        else:
            verified_at = self.verified_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "last_screened_at": last_screened_at,
                "screen_id": screen_id,
                "verified_tier": verified_tier,
            }
        )
        if verified_at is not UNSET:
            field_dict["verified_at"] = verified_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        last_screened_at = d.pop("last_screened_at")

        screen_id = d.pop("screen_id")

        verified_tier = d.pop("verified_tier")

        def _parse_verified_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        verified_at = _parse_verified_at(d.pop("verified_at", UNSET))

        access_export_screening = cls(
            last_screened_at=last_screened_at,
            screen_id=screen_id,
            verified_tier=verified_tier,
            verified_at=verified_at,
        )

        access_export_screening.additional_properties = d
        return access_export_screening

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
