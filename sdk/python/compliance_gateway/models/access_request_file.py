from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.access_state import AccessState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.access_export import AccessExport
    from ..models.withholding import Withholding


T = TypeVar("T", bound="AccessRequestFile")


@_attrs_define
class AccessRequestFile:
    """A request as the compliance team reads it before releasing it.

    Attributes:
        access_request_id (str):
        due_at (str):
        received_at (str):
        state (AccessState): Where a request stands.
        tenant_id (str):
        user_id (str):
        withheld (list[Withholding]): what is withheld: proposed now, or as approved once released
        withhold_basis (str): the basis of every withholding, and its law
        withhold_source (str):
        export (AccessExport | None | Unset):
    """

    access_request_id: str
    due_at: str
    received_at: str
    state: AccessState
    tenant_id: str
    user_id: str
    withheld: list[Withholding]
    withhold_basis: str
    withhold_source: str
    export: AccessExport | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.access_export import AccessExport

        access_request_id = self.access_request_id

        due_at = self.due_at

        received_at = self.received_at

        state = self.state.value

        tenant_id = self.tenant_id

        user_id = self.user_id

        withheld = []
        for withheld_item_data in self.withheld:
            withheld_item = withheld_item_data.to_dict()
            withheld.append(withheld_item)

        withhold_basis = self.withhold_basis

        withhold_source = self.withhold_source

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
                "tenant_id": tenant_id,
                "user_id": user_id,
                "withheld": withheld,
                "withhold_basis": withhold_basis,
                "withhold_source": withhold_source,
            }
        )
        if export is not UNSET:
            field_dict["export"] = export

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_export import AccessExport
        from ..models.withholding import Withholding

        d = dict(src_dict)
        access_request_id = d.pop("access_request_id")

        due_at = d.pop("due_at")

        received_at = d.pop("received_at")

        state = AccessState(d.pop("state"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        withheld = []
        _withheld = d.pop("withheld")
        for withheld_item_data in _withheld:
            withheld_item = Withholding.from_dict(withheld_item_data)

            withheld.append(withheld_item)

        withhold_basis = d.pop("withhold_basis")

        withhold_source = d.pop("withhold_source")

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

        access_request_file = cls(
            access_request_id=access_request_id,
            due_at=due_at,
            received_at=received_at,
            state=state,
            tenant_id=tenant_id,
            user_id=user_id,
            withheld=withheld,
            withhold_basis=withhold_basis,
            withhold_source=withhold_source,
            export=export,
        )

        access_request_file.additional_properties = d
        return access_request_file

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
