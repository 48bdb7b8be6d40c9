from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.typology_feedback import TypologyFeedback


T = TypeVar("T", bound="AmlFeedback")


@_attrs_define
class AmlFeedback:
    """What the team's outcomes say of the rules.

    Attributes:
        alerts (int):
        cases_closed (int):
        cases_open (int):
        typologies (list[TypologyFeedback]):
        alerts_per_case (float | None | Unset): alerts per case: how many alerts a case groups
    """

    alerts: int
    cases_closed: int
    cases_open: int
    typologies: list[TypologyFeedback]
    alerts_per_case: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        alerts = self.alerts

        cases_closed = self.cases_closed

        cases_open = self.cases_open

        typologies = []
        for typologies_item_data in self.typologies:
            typologies_item = typologies_item_data.to_dict()
            typologies.append(typologies_item)

        alerts_per_case: float | None | Unset
        if isinstance(self.alerts_per_case, Unset):
            alerts_per_case = UNSET
        else:
            alerts_per_case = self.alerts_per_case

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "alerts": alerts,
                "cases_closed": cases_closed,
                "cases_open": cases_open,
                "typologies": typologies,
            }
        )
        if alerts_per_case is not UNSET:
            field_dict["alerts_per_case"] = alerts_per_case

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.typology_feedback import TypologyFeedback

        d = dict(src_dict)
        alerts = d.pop("alerts")

        cases_closed = d.pop("cases_closed")

        cases_open = d.pop("cases_open")

        typologies = []
        _typologies = d.pop("typologies")
        for typologies_item_data in _typologies:
            typologies_item = TypologyFeedback.from_dict(typologies_item_data)

            typologies.append(typologies_item)

        def _parse_alerts_per_case(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        alerts_per_case = _parse_alerts_per_case(d.pop("alerts_per_case", UNSET))

        aml_feedback = cls(
            alerts=alerts,
            cases_closed=cases_closed,
            cases_open=cases_open,
            typologies=typologies,
            alerts_per_case=alerts_per_case,
        )

        aml_feedback.additional_properties = d
        return aml_feedback

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
