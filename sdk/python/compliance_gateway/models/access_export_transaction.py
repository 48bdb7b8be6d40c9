from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.access_export_transaction_event import AccessExportTransactionEvent


T = TypeVar("T", bound="AccessExportTransaction")


@_attrs_define
class AccessExportTransaction:
    """A transaction the operator reported, as reported.

    Attributes:
        event (AccessExportTransactionEvent):
        received_at (str):
        transaction_id (str):
    """

    event: AccessExportTransactionEvent
    received_at: str
    transaction_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event.to_dict()

        received_at = self.received_at

        transaction_id = self.transaction_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "received_at": received_at,
                "transaction_id": transaction_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_export_transaction_event import (
            AccessExportTransactionEvent,
        )

        d = dict(src_dict)
        event = AccessExportTransactionEvent.from_dict(d.pop("event"))

        received_at = d.pop("received_at")

        transaction_id = d.pop("transaction_id")

        access_export_transaction = cls(
            event=event,
            received_at=received_at,
            transaction_id=transaction_id,
        )

        access_export_transaction.additional_properties = d
        return access_export_transaction

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
