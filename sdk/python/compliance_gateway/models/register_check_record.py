from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RegisterCheckRecord")


@_attrs_define
class RegisterCheckRecord:
    """One register's part of a check, as kept.

    Attributes:
        check_id (str):
        checked_at (str):
        latency_ms (int):
        purpose (str): the check's purpose, or `batch` for the nightly batch
        register (str):
        request_id (str): our id of the call, sent to the register (`requestId`, `X-Trace-Id`); for the shared register,
            the decision's id
        status (str):
        reason (None | str | Unset): why an `unavailable` register's answer could not be used: `timeout`, `unreachable`,
            `destination_refused`, `status_NNN` (its HTTP status) or `malformed`
        reference (None | str | Unset):
    """

    check_id: str
    checked_at: str
    latency_ms: int
    purpose: str
    register: str
    request_id: str
    status: str
    reason: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        check_id = self.check_id

        checked_at = self.checked_at

        latency_ms = self.latency_ms

        purpose = self.purpose

        register = self.register

        request_id = self.request_id

        status = self.status

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "check_id": check_id,
                "checked_at": checked_at,
                "latency_ms": latency_ms,
                "purpose": purpose,
                "register": register,
                "request_id": request_id,
                "status": status,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        check_id = d.pop("check_id")

        checked_at = d.pop("checked_at")

        latency_ms = d.pop("latency_ms")

        purpose = d.pop("purpose")

        register = d.pop("register")

        request_id = d.pop("request_id")

        status = d.pop("status")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        register_check_record = cls(
            check_id=check_id,
            checked_at=checked_at,
            latency_ms=latency_ms,
            purpose=purpose,
            register=register,
            request_id=request_id,
            status=status,
            reason=reason,
            reference=reference,
        )

        register_check_record.additional_properties = d
        return register_check_record

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
