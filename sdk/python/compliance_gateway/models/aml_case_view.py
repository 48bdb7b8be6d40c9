from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AmlCaseView")


@_attrs_define
class AmlCaseView:
    """
    Attributes:
        actions (list[str]):
        alert_count (int):
        case_id (str):
        due_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        opened_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        status (str): `open` or `closed`
        tenant_id (str):
        typologies (list[str]):
        user_id (str):
        closed_at (datetime.datetime | None | Unset):
        outcome (None | str | Unset):
        reviewer (None | str | Unset):
    """

    actions: list[str]
    alert_count: int
    case_id: str
    due_at: datetime.datetime
    opened_at: datetime.datetime
    status: str
    tenant_id: str
    typologies: list[str]
    user_id: str
    closed_at: datetime.datetime | None | Unset = UNSET
    outcome: None | str | Unset = UNSET
    reviewer: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions

        alert_count = self.alert_count

        case_id = self.case_id

        due_at = self.due_at.isoformat()

        opened_at = self.opened_at.isoformat()

        status = self.status

        tenant_id = self.tenant_id

        typologies = self.typologies

        user_id = self.user_id

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        reviewer: None | str | Unset
        if isinstance(self.reviewer, Unset):
            reviewer = UNSET
        else:
            reviewer = self.reviewer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "alert_count": alert_count,
                "case_id": case_id,
                "due_at": due_at,
                "opened_at": opened_at,
                "status": status,
                "tenant_id": tenant_id,
                "typologies": typologies,
                "user_id": user_id,
            }
        )
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if reviewer is not UNSET:
            field_dict["reviewer"] = reviewer

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        actions = cast(list[str], d.pop("actions"))

        alert_count = d.pop("alert_count")

        case_id = d.pop("case_id")

        due_at = datetime.datetime.fromisoformat(d.pop("due_at"))

        opened_at = datetime.datetime.fromisoformat(d.pop("opened_at"))

        status = d.pop("status")

        tenant_id = d.pop("tenant_id")

        typologies = cast(list[str], d.pop("typologies"))

        user_id = d.pop("user_id")

        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)

                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closed_at", UNSET))

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        def _parse_reviewer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reviewer = _parse_reviewer(d.pop("reviewer", UNSET))

        aml_case_view = cls(
            actions=actions,
            alert_count=alert_count,
            case_id=case_id,
            due_at=due_at,
            opened_at=opened_at,
            status=status,
            tenant_id=tenant_id,
            typologies=typologies,
            user_id=user_id,
            closed_at=closed_at,
            outcome=outcome,
            reviewer=reviewer,
        )

        aml_case_view.additional_properties = d
        return aml_case_view

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
