from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.access_state import AccessState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.access_export import AccessExport


T = TypeVar("T", bound="AccessRequestView")


@_attrs_define
class AccessRequestView:
    """An access request, as the operator sees it.

    Attributes:
        access_request_id (str):
        due_at (str): when the answer is due under the tenant's profile
        received_at (str):
        state (AccessState): Where a request stands.
        delivered_at (None | str | Unset): when the operator said the export was handed over
        export (AccessExport | None | Unset):
    """

    access_request_id: str
    due_at: str
    received_at: str
    state: AccessState
    delivered_at: None | str | Unset = UNSET
    export: AccessExport | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.access_export import AccessExport

        access_request_id = self.access_request_id

        due_at = self.due_at

        received_at = self.received_at

        state = self.state.value

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        else:
            delivered_at = self.delivered_at

        export: dict[str, Any] | None | Unset
        if isinstance(self.export, Unset):
            export = UNSET
        elif isinstance(self.export, AccessExport):
            export = self.export.to_dict()
        else:
            export = self.export

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_request_id": access_request_id,
                "due_at": due_at,
                "received_at": received_at,
                "state": state,
            }
        )
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if export is not UNSET:
            field_dict["export"] = export

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_export import AccessExport

        d = dict(src_dict)
        access_request_id = d.pop("access_request_id")

        due_at = d.pop("due_at")

        received_at = d.pop("received_at")

        state = AccessState(d.pop("state"))

        def _parse_delivered_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))

        def _parse_export(data: object) -> AccessExport | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                export_type_0 = AccessExport.from_dict(data)

                return export_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccessExport | None | Unset, data)

        export = _parse_export(d.pop("export", UNSET))

        access_request_view = cls(
            access_request_id=access_request_id,
            due_at=due_at,
            received_at=received_at,
            state=state,
            delivered_at=delivered_at,
            export=export,
        )

        access_request_view.additional_properties = d
        return access_request_view

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
