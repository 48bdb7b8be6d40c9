from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DecisionReplay")


@_attrs_define
class DecisionReplay:
    """What a replay found.

    Attributes:
        decision_id (str):
        differences (list[str]): where the outputs differ, as JSON pointers
        identical (bool):
        recorded_rules_sha256 (str):
        replayed_output (Any):
        replayed_rules_sha256 (str):
        replayed_rules_version (str):
    """

    decision_id: str
    differences: list[str]
    identical: bool
    recorded_rules_sha256: str
    replayed_output: Any
    replayed_rules_sha256: str
    replayed_rules_version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision_id = self.decision_id

        differences = self.differences

        identical = self.identical

        recorded_rules_sha256 = self.recorded_rules_sha256

        replayed_output = self.replayed_output

        replayed_rules_sha256 = self.replayed_rules_sha256

        replayed_rules_version = self.replayed_rules_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision_id": decision_id,
                "differences": differences,
                "identical": identical,
                "recorded_rules_sha256": recorded_rules_sha256,
                "replayed_output": replayed_output,
                "replayed_rules_sha256": replayed_rules_sha256,
                "replayed_rules_version": replayed_rules_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision_id = d.pop("decision_id")

        differences = cast(list[str], d.pop("differences"))

        identical = d.pop("identical")

        recorded_rules_sha256 = d.pop("recorded_rules_sha256")

        replayed_output = d.pop("replayed_output")

        replayed_rules_sha256 = d.pop("replayed_rules_sha256")

        replayed_rules_version = d.pop("replayed_rules_version")

        decision_replay = cls(
            decision_id=decision_id,
            differences=differences,
            identical=identical,
            recorded_rules_sha256=recorded_rules_sha256,
            replayed_output=replayed_output,
            replayed_rules_sha256=replayed_rules_sha256,
            replayed_rules_version=replayed_rules_version,
        )

        decision_replay.additional_properties = d
        return decision_replay

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
