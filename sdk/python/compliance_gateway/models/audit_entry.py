from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditEntry")


@_attrs_define
class AuditEntry:
    """One entry of an audit log: a failed authentication or an admin action.

    Attributes:
        action (str):
        actor_key_id (None | str):
        at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        audit_id (str):
        key_prefix (None | str):
        reason (str):
        request_id (str):
        resource (None | str):
        tenant_id (None | str | Unset): in the environment's admin log only: the tenant acted on
    """

    action: str
    actor_key_id: None | str
    at: datetime.datetime
    audit_id: str
    key_prefix: None | str
    reason: str
    request_id: str
    resource: None | str
    tenant_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor_key_id: None | str
        actor_key_id = self.actor_key_id

        at = self.at.isoformat()

        audit_id = self.audit_id

        key_prefix: None | str
        key_prefix = self.key_prefix

        reason = self.reason

        request_id = self.request_id

        resource: None | str
        resource = self.resource

        tenant_id: None | str | Unset
        if isinstance(self.tenant_id, Unset):
            tenant_id = UNSET
        else:
            tenant_id = self.tenant_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor_key_id": actor_key_id,
                "at": at,
                "audit_id": audit_id,
                "key_prefix": key_prefix,
                "reason": reason,
                "request_id": request_id,
                "resource": resource,
            }
        )
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = d.pop("action")

        def _parse_actor_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_key_id = _parse_actor_key_id(d.pop("actor_key_id"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        audit_id = d.pop("audit_id")

        def _parse_key_prefix(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key_prefix = _parse_key_prefix(d.pop("key_prefix"))

        reason = d.pop("reason")

        request_id = d.pop("request_id")

        def _parse_resource(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource = _parse_resource(d.pop("resource"))

        def _parse_tenant_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tenant_id = _parse_tenant_id(d.pop("tenant_id", UNSET))

        audit_entry = cls(
            action=action,
            actor_key_id=actor_key_id,
            at=at,
            audit_id=audit_id,
            key_prefix=key_prefix,
            reason=reason,
            request_id=request_id,
            resource=resource,
            tenant_id=tenant_id,
        )

        audit_entry.additional_properties = d
        return audit_entry

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
