from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VendorReviewResult")


@_attrs_define
class VendorReviewResult:
    """
    Attributes:
        review_answer (None | str | Unset):
        review_reject_type (None | str | Unset):
    """

    review_answer: None | str | Unset = UNSET
    review_reject_type: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        review_answer: None | str | Unset
        if isinstance(self.review_answer, Unset):
            review_answer = UNSET
        else:
            review_answer = self.review_answer

        review_reject_type: None | str | Unset
        if isinstance(self.review_reject_type, Unset):
            review_reject_type = UNSET
        else:
            review_reject_type = self.review_reject_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if review_answer is not UNSET:
            field_dict["reviewAnswer"] = review_answer
        if review_reject_type is not UNSET:
            field_dict["reviewRejectType"] = review_reject_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_review_answer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review_answer = _parse_review_answer(d.pop("reviewAnswer", UNSET))

        def _parse_review_reject_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review_reject_type = _parse_review_reject_type(d.pop("reviewRejectType", UNSET))

        vendor_review_result = cls(
            review_answer=review_answer,
            review_reject_type=review_reject_type,
        )

        vendor_review_result.additional_properties = d
        return vendor_review_result

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
