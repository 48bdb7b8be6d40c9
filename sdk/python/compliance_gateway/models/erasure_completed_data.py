from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ErasureCompletedData")


@_attrs_define
class ErasureCompletedData:
    """`user.erasure_completed`: every class of the user's data that the law let go is erased.

    Attributes:
        erasure_id (str):
        user_id (str):
    """

    erasure_id: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        erasure_id = self.erasure_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "erasure_id": erasure_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        erasure_id = d.pop("erasure_id")

        user_id = d.pop("user_id")

        erasure_completed_data = cls(
            erasure_id=erasure_id,
            user_id=user_id,
        )

        return erasure_completed_data
