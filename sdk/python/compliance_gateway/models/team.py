from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.disabled_member import DisabledMember
    from ..models.team_member import TeamMember


T = TypeVar("T", bound="Team")


@_attrs_define
class Team:
    """
    Attributes:
        disabled (list[DisabledMember]): the disabled accounts, new ones waiting for their admins among them (to an
            admin only; empty to others)
        people (list[TeamMember]): the enabled accounts
    """

    disabled: list[DisabledMember]
    people: list[TeamMember]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        disabled = []
        for disabled_item_data in self.disabled:
            disabled_item = disabled_item_data.to_dict()
            disabled.append(disabled_item)

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "disabled": disabled,
                "people": people,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.disabled_member import DisabledMember
        from ..models.team_member import TeamMember

        d = dict(src_dict)
        disabled = []
        _disabled = d.pop("disabled")
        for disabled_item_data in _disabled:
            disabled_item = DisabledMember.from_dict(disabled_item_data)

            disabled.append(disabled_item)

        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = TeamMember.from_dict(people_item_data)

            people.append(people_item)

        team = cls(
            disabled=disabled,
            people=people,
        )

        team.additional_properties = d
        return team

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
