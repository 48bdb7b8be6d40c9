from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_entry import AuditEntry


T = TypeVar("T", bound="TenantAudit")


@_attrs_define
class TenantAudit:
    """A page of a tenant's audit log, newest first.

    Attributes:
        entries (list[AuditEntry]):
        has_more (bool):
        next_cursor (None | str): for the next page; `null` on the last
        tenant_id (str):
    """

    entries: list[AuditEntry]
    has_more: bool
    next_cursor: None | str
    tenant_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
                "has_more": has_more,
                "next_cursor": next_cursor,
                "tenant_id": tenant_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.audit_entry import AuditEntry

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = AuditEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        has_more = d.pop("has_more")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        tenant_id = d.pop("tenant_id")

        tenant_audit = cls(
            entries=entries,
            has_more=has_more,
            next_cursor=next_cursor,
            tenant_id=tenant_id,
        )

        tenant_audit.additional_properties = d
        return tenant_audit

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
