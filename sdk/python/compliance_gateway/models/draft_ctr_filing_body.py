from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filing_subject import FilingSubject


T = TypeVar("T", bound="DraftCtrFilingBody")


@_attrs_define
class DraftCtrFilingBody:
    """The body of a filing request.

    Attributes:
        format_ (str): `fincen-sar` or `goaml` for a case, `fincen-ctr` for a CTR candidate
        narrative (None | str | Unset): the narrative the officer wrote; the draft's own when absent
        subject (FilingSubject | None | Unset):
    """

    format_: str
    narrative: None | str | Unset = UNSET
    subject: FilingSubject | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.filing_subject import FilingSubject

        format_ = self.format_

        narrative: None | str | Unset
        if isinstance(self.narrative, Unset):
            narrative = UNSET
        else:
            narrative = self.narrative

        subject: dict[str, Any] | None | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        elif isinstance(self.subject, FilingSubject):
            subject = self.subject.to_dict()
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
            }
        )
        if narrative is not UNSET:
            field_dict["narrative"] = narrative
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filing_subject import FilingSubject

        d = dict(src_dict)
        format_ = d.pop("format")

        def _parse_narrative(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        narrative = _parse_narrative(d.pop("narrative", UNSET))

        def _parse_subject(data: object) -> FilingSubject | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                subject_type_0 = FilingSubject.from_dict(data)

                return subject_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FilingSubject | None | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        draft_ctr_filing_body = cls(
            format_=format_,
            narrative=narrative,
            subject=subject,
        )

        return draft_ctr_filing_body
