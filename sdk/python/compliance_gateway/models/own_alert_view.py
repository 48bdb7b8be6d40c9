from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_outcome_name import AmlOutcomeName

T = TypeVar("T", bound="OwnAlertView")


@_attrs_define
class OwnAlertView:
    """An alert as the operator sees it: its own user's, without the evidence.

    Attributes:
        actions (list[str]):
        alert_id (str):
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        outcome (AmlOutcomeName):
        typologies (list[str]):
        user_id (str):
    """

    actions: list[str]
    alert_id: str
    created_at: datetime.datetime
    outcome: AmlOutcomeName
    typologies: list[str]
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions

        alert_id = self.alert_id

        created_at = self.created_at.isoformat()

        outcome = self.outcome.value

        typologies = self.typologies

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "alert_id": alert_id,
                "created_at": created_at,
                "outcome": outcome,
                "typologies": typologies,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        actions = cast(list[str], d.pop("actions"))

        alert_id = d.pop("alert_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        outcome = AmlOutcomeName(d.pop("outcome"))

        typologies = cast(list[str], d.pop("typologies"))

        user_id = d.pop("user_id")

        own_alert_view = cls(
            actions=actions,
            alert_id=alert_id,
            created_at=created_at,
            outcome=outcome,
            typologies=typologies,
            user_id=user_id,
        )

        own_alert_view.additional_properties = d
        return own_alert_view

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
