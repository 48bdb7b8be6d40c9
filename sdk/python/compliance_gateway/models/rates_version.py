from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RatesVersion")


@_attrs_define
class RatesVersion:
    """What an import made.

    Attributes:
        created (bool): false when this file was imported before: nothing changed
        imported_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        imported_by (str):
        rates (int):
        version (str): the SHA-256 of the file: the version each AML decision names
    """

    created: bool
    imported_at: datetime.datetime
    imported_by: str
    rates: int
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        imported_at = self.imported_at.isoformat()

        imported_by = self.imported_by

        rates = self.rates

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "imported_at": imported_at,
                "imported_by": imported_by,
                "rates": rates,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created = d.pop("created")

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

        imported_by = d.pop("imported_by")

        rates = d.pop("rates")

        version = d.pop("version")

        rates_version = cls(
            created=created,
            imported_at=imported_at,
            imported_by=imported_by,
            rates=rates,
            version=version,
        )

        rates_version.additional_properties = d
        return rates_version

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
