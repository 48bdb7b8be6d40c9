from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.limit_cancelled_status import LimitCancelledStatus
from ..models.limit_type import LimitType

T = TypeVar("T", bound="LimitCancelled")


@_attrs_define
class LimitCancelled:
    """
    Attributes:
        cancelled_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        limit_id (str):
        limit_type (LimitType):
        status (LimitCancelledStatus):
        user_id (str):
    """

    cancelled_at: datetime.datetime
    limit_id: str
    limit_type: LimitType
    status: LimitCancelledStatus
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancelled_at = self.cancelled_at.isoformat()

        limit_id = self.limit_id

        limit_type = self.limit_type.value

        status = self.status.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelled_at": cancelled_at,
                "limit_id": limit_id,
                "limit_type": limit_type,
                "status": status,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cancelled_at = datetime.datetime.fromisoformat(d.pop("cancelled_at"))

        limit_id = d.pop("limit_id")

        limit_type = LimitType(d.pop("limit_type"))

        status = LimitCancelledStatus(d.pop("status"))

        user_id = d.pop("user_id")

        limit_cancelled = cls(
            cancelled_at=cancelled_at,
            limit_id=limit_id,
            limit_type=limit_type,
            status=status,
            user_id=user_id,
        )

        limit_cancelled.additional_properties = d
        return limit_cancelled

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
