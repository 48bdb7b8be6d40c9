from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TypologyFeedback")


@_attrs_define
class TypologyFeedback:
    """One typology's record: alerts, and how the cases holding it were closed.

    Attributes:
        alerts (int):
        cases_confirmed (int):
        cases_false_positive (int):
        typology (str):
        precision (float | None | Unset): confirmed over closed; none before a case holding it is closed
    """

    alerts: int
    cases_confirmed: int
    cases_false_positive: int
    typology: str
    precision: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        alerts = self.alerts

        cases_confirmed = self.cases_confirmed

        cases_false_positive = self.cases_false_positive

        typology = self.typology

        precision: float | None | Unset
        if isinstance(self.precision, Unset):
            precision = UNSET
        else:
            precision = self.precision

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "alerts": alerts,
                "cases_confirmed": cases_confirmed,
                "cases_false_positive": cases_false_positive,
                "typology": typology,
            }
        )
        if precision is not UNSET:
            field_dict["precision"] = precision

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        alerts = d.pop("alerts")

        cases_confirmed = d.pop("cases_confirmed")

        cases_false_positive = d.pop("cases_false_positive")

        typology = d.pop("typology")

        def _parse_precision(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        precision = _parse_precision(d.pop("precision", UNSET))

        typology_feedback = cls(
            alerts=alerts,
            cases_confirmed=cases_confirmed,
            cases_false_positive=cases_false_positive,
            typology=typology,
            precision=precision,
        )

        typology_feedback.additional_properties = d
        return typology_feedback

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
