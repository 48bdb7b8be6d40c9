from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sanctions_status import SanctionsStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Screening")


@_attrs_define
class Screening:
    """The answer to a screening; stored and answered again on a repeat. A hit
    adds the case fields and never names the matched entity.

        Attributes:
            checked_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
            screen_id (str):
            status (SanctionsStatus): a user's screening status
            transactions_held (bool):
            user_id (str):
            case_id (str | Unset):
            due_diligence_required (bool | Unset): present (true) when the tenant screens for PEPs or adverse media and
                the user needs enhanced due diligence; nothing is held for it
            estimated_review_time (str | Unset):
            highest_match_score (float | Unset):
            match_count (int | Unset):
            signup_allowed (bool | Unset):
    """

    checked_at: datetime.datetime
    screen_id: str
    status: SanctionsStatus
    transactions_held: bool
    user_id: str
    case_id: str | Unset = UNSET
    due_diligence_required: bool | Unset = UNSET
    estimated_review_time: str | Unset = UNSET
    highest_match_score: float | Unset = UNSET
    match_count: int | Unset = UNSET
    signup_allowed: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_at = self.checked_at.isoformat()

        screen_id = self.screen_id

        status = self.status.value

        transactions_held = self.transactions_held

        user_id = self.user_id

        case_id = self.case_id

        due_diligence_required = self.due_diligence_required

        estimated_review_time = self.estimated_review_time

        highest_match_score = self.highest_match_score

        match_count = self.match_count

        signup_allowed = self.signup_allowed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_at": checked_at,
                "screen_id": screen_id,
                "status": status,
                "transactions_held": transactions_held,
                "user_id": user_id,
            }
        )
        if case_id is not UNSET:
            field_dict["case_id"] = case_id
        if due_diligence_required is not UNSET:
            field_dict["due_diligence_required"] = due_diligence_required
        if estimated_review_time is not UNSET:
            field_dict["estimated_review_time"] = estimated_review_time
        if highest_match_score is not UNSET:
            field_dict["highest_match_score"] = highest_match_score
        if match_count is not UNSET:
            field_dict["match_count"] = match_count
        if signup_allowed is not UNSET:
            field_dict["signup_allowed"] = signup_allowed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        screen_id = d.pop("screen_id")

        status = SanctionsStatus(d.pop("status"))

        transactions_held = d.pop("transactions_held")

        user_id = d.pop("user_id")

        case_id = d.pop("case_id", UNSET)

        due_diligence_required = d.pop("due_diligence_required", UNSET)

        estimated_review_time = d.pop("estimated_review_time", UNSET)

        highest_match_score = d.pop("highest_match_score", UNSET)

        match_count = d.pop("match_count", UNSET)

        signup_allowed = d.pop("signup_allowed", UNSET)

        screening = cls(
            checked_at=checked_at,
            screen_id=screen_id,
            status=status,
            transactions_held=transactions_held,
            user_id=user_id,
            case_id=case_id,
            due_diligence_required=due_diligence_required,
            estimated_review_time=estimated_review_time,
            highest_match_score=highest_match_score,
            match_count=match_count,
            signup_allowed=signup_allowed,
        )

        screening.additional_properties = d
        return screening

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
