from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AmlAlertData")


@_attrs_define
class AmlAlertData:
    """`aml.alert_created`: the transaction monitor raised an alert.

    Attributes:
        actions (list[str]):
        alert_id (str):
        outcome (str):
        typologies (list[str]):
        user_id (str):
    """

    actions: list[str]
    alert_id: str
    outcome: str
    typologies: list[str]
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions

        alert_id = self.alert_id

        outcome = self.outcome

        typologies = self.typologies

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actions": actions,
                "alert_id": alert_id,
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

        outcome = d.pop("outcome")

        typologies = cast(list[str], d.pop("typologies"))

        user_id = d.pop("user_id")

        aml_alert_data = cls(
            actions=actions,
            alert_id=alert_id,
            outcome=outcome,
            typologies=typologies,
            user_id=user_id,
        )

        return aml_alert_data
