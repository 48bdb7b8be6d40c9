from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.vendor_review_result import VendorReviewResult


T = TypeVar("T", bound="ReceiveIdentityVendorWebhookBody")


@_attrs_define
class ReceiveIdentityVendorWebhookBody:
    """The body of the identity vendor's webhook (Sumsub), as far as it is read.

    Attributes:
        external_user_id (None | str | Unset):
        review_result (None | Unset | VendorReviewResult):
        type_ (None | str | Unset):
    """

    external_user_id: None | str | Unset = UNSET
    review_result: None | Unset | VendorReviewResult = UNSET
    type_: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.vendor_review_result import VendorReviewResult

        external_user_id: None | str | Unset
        if isinstance(self.external_user_id, Unset):
            external_user_id = UNSET
        else:
            external_user_id = self.external_user_id

        review_result: dict[str, Any] | None | Unset
        if isinstance(self.review_result, Unset):
            review_result = UNSET
        elif isinstance(self.review_result, VendorReviewResult):
            review_result = self.review_result.to_dict()
        else:
            review_result = self.review_result

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if external_user_id is not UNSET:
            field_dict["externalUserId"] = external_user_id
        if review_result is not UNSET:
            field_dict["reviewResult"] = review_result
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.vendor_review_result import VendorReviewResult

        d = dict(src_dict)

        def _parse_external_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_user_id = _parse_external_user_id(d.pop("externalUserId", UNSET))

        def _parse_review_result(data: object) -> None | Unset | VendorReviewResult:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                review_result_type_0 = VendorReviewResult.from_dict(data)

                return review_result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | VendorReviewResult, data)

        review_result = _parse_review_result(d.pop("reviewResult", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        receive_identity_vendor_webhook_body = cls(
            external_user_id=external_user_id,
            review_result=review_result,
            type_=type_,
        )

        receive_identity_vendor_webhook_body.additional_properties = d
        return receive_identity_vendor_webhook_body

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
