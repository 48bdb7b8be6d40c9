from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.case_kind import CaseKind
from ..models.case_status import CaseStatus

if TYPE_CHECKING:
    from ..models.case_match import CaseMatch
    from ..models.screened_identity import ScreenedIdentity


T = TypeVar("T", bound="Case")


@_attrs_define
class Case:
    """A case with its matched entities: for the compliance team only.

    Attributes:
        case_id (str):
        case_type (CaseKind): a sanctions hit (transactions held until decided) or enhanced due diligence on a PEP or
            adverse-media match (nothing held)
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        decided_at (datetime.datetime | None):
        highest_match_score (float):
        match_count (int):
        matches (list[CaseMatch]):
        reviewer (None | str):
        screened (None | ScreenedIdentity):
        status (CaseStatus): a sanctions case's status
        tenant_id (str):
        user_id (str):
    """

    case_id: str
    case_type: CaseKind
    created_at: datetime.datetime
    decided_at: datetime.datetime | None
    highest_match_score: float
    match_count: int
    matches: list[CaseMatch]
    reviewer: None | str
    screened: None | ScreenedIdentity
    status: CaseStatus
    tenant_id: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.screened_identity import ScreenedIdentity

        case_id = self.case_id

        case_type = self.case_type.value

        created_at = self.created_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        highest_match_score = self.highest_match_score

        match_count = self.match_count

        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        reviewer: None | str
        reviewer = self.reviewer

        screened: dict[str, Any] | None
        if isinstance(self.screened, ScreenedIdentity):
            screened = self.screened.to_dict()
        else:
            screened = self.screened

        status = self.status.value

        tenant_id = self.tenant_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "case_type": case_type,
                "created_at": created_at,
                "decided_at": decided_at,
                "highest_match_score": highest_match_score,
                "match_count": match_count,
                "matches": matches,
                "reviewer": reviewer,
                "screened": screened,
                "status": status,
                "tenant_id": tenant_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.case_match import CaseMatch
        from ..models.screened_identity import ScreenedIdentity

        d = dict(src_dict)
        case_id = d.pop("case_id")

        case_type = CaseKind(d.pop("case_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        highest_match_score = d.pop("highest_match_score")

        match_count = d.pop("match_count")

        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = CaseMatch.from_dict(matches_item_data)

            matches.append(matches_item)

        def _parse_reviewer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewer = _parse_reviewer(d.pop("reviewer"))

        def _parse_screened(data: object) -> None | ScreenedIdentity:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                screened_type_0 = ScreenedIdentity.from_dict(data)

                return screened_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScreenedIdentity, data)

        screened = _parse_screened(d.pop("screened"))

        status = CaseStatus(d.pop("status"))

        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        case = cls(
            case_id=case_id,
            case_type=case_type,
            created_at=created_at,
            decided_at=decided_at,
            highest_match_score=highest_match_score,
            match_count=match_count,
            matches=matches,
            reviewer=reviewer,
            screened=screened,
            status=status,
            tenant_id=tenant_id,
            user_id=user_id,
        )

        case.additional_properties = d
        return case

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
