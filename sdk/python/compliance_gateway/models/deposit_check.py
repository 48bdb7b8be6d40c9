from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deposit_refusal import DepositRefusal
from ..models.limit_type import LimitType
from ..types import UNSET, Unset

T = TypeVar("T", bound="DepositCheck")


@_attrs_define
class DepositCheck:
    """The pre-deposit gate's answer. When `allowed` is false, `user_message`
    is for the player and `reason` says why; a breach names the limit.

        Attributes:
            allowed (bool):
            active_limits (list[LimitType] | Unset):
            already_spent_cents (int | None | Unset):
            amount_cents (int | None | Unset):
            breached_limit_type (LimitType | Unset):
            limit_amount_cents (int | None | Unset):
            max_allowed_now_cents (int | None | Unset):
            next_reset_at (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
            reason (DepositRefusal | None | Unset):
            user_message (None | str | Unset):
            would_remain_cents (int | None | Unset): with `allowed`: what the tightest limit leaves after this deposit
                (`null` with no limit)
    """

    allowed: bool
    active_limits: list[LimitType] | Unset = UNSET
    already_spent_cents: int | None | Unset = UNSET
    amount_cents: int | None | Unset = UNSET
    breached_limit_type: LimitType | Unset = UNSET
    limit_amount_cents: int | None | Unset = UNSET
    max_allowed_now_cents: int | None | Unset = UNSET
    next_reset_at: datetime.datetime | Unset = UNSET
    reason: DepositRefusal | None | Unset = UNSET
    user_message: None | str | Unset = UNSET
    would_remain_cents: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        allowed = self.allowed

        active_limits: list[str] | Unset = UNSET
        if not isinstance(self.active_limits, Unset):
            active_limits = []
            for active_limits_item_data in self.active_limits:
                active_limits_item = active_limits_item_data.value
                active_limits.append(active_limits_item)

        already_spent_cents: int | None | Unset
        if isinstance(self.already_spent_cents, Unset):
            already_spent_cents = UNSET
        else:
            already_spent_cents = self.already_spent_cents

        amount_cents: int | None | Unset
        if isinstance(self.amount_cents, Unset):
            amount_cents = UNSET
        else:
            amount_cents = self.amount_cents

        breached_limit_type: str | Unset = UNSET
        if not isinstance(self.breached_limit_type, Unset):
            breached_limit_type = self.breached_limit_type.value

        limit_amount_cents: int | None | Unset
        if isinstance(self.limit_amount_cents, Unset):
            limit_amount_cents = UNSET
        else:
            limit_amount_cents = self.limit_amount_cents

        max_allowed_now_cents: int | None | Unset
        if isinstance(self.max_allowed_now_cents, Unset):
            max_allowed_now_cents = UNSET
        else:
            max_allowed_now_cents = self.max_allowed_now_cents

        next_reset_at: str | Unset = UNSET
        if not isinstance(self.next_reset_at, Unset):
            next_reset_at = self.next_reset_at.isoformat()

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, DepositRefusal):
            reason = self.reason.value
        else:
            reason = self.reason

        user_message: None | str | Unset
        if isinstance(self.user_message, Unset):
            user_message = UNSET
        else:
            user_message = self.user_message

        would_remain_cents: int | None | Unset
        if isinstance(self.would_remain_cents, Unset):
            would_remain_cents = UNSET
        else:
            would_remain_cents = self.would_remain_cents

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "allowed": allowed,
            }
        )
        if active_limits is not UNSET:
            field_dict["active_limits"] = active_limits
        if already_spent_cents is not UNSET:
            field_dict["already_spent_cents"] = already_spent_cents
        if amount_cents is not UNSET:
            field_dict["amount_cents"] = amount_cents
        if breached_limit_type is not UNSET:
            field_dict["breached_limit_type"] = breached_limit_type
        if limit_amount_cents is not UNSET:
            field_dict["limit_amount_cents"] = limit_amount_cents
        if max_allowed_now_cents is not UNSET:
            field_dict["max_allowed_now_cents"] = max_allowed_now_cents
        if next_reset_at is not UNSET:
            field_dict["next_reset_at"] = next_reset_at
        if reason is not UNSET:
            field_dict["reason"] = reason
        if user_message is not UNSET:
            field_dict["user_message"] = user_message
        if would_remain_cents is not UNSET:
            field_dict["would_remain_cents"] = would_remain_cents

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        allowed = d.pop("allowed")

        _active_limits = d.pop("active_limits", UNSET)
        active_limits: list[LimitType] | Unset = UNSET
        if _active_limits is not UNSET:
            active_limits = []
            for active_limits_item_data in _active_limits:
                active_limits_item = LimitType(active_limits_item_data)

                active_limits.append(active_limits_item)

        def _parse_already_spent_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        already_spent_cents = _parse_already_spent_cents(
            d.pop("already_spent_cents", UNSET)
        )

        def _parse_amount_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        amount_cents = _parse_amount_cents(d.pop("amount_cents", UNSET))

        _breached_limit_type = d.pop("breached_limit_type", UNSET)
        breached_limit_type: LimitType | Unset
        if isinstance(_breached_limit_type, Unset):
            breached_limit_type = UNSET
        else:
            breached_limit_type = LimitType(_breached_limit_type)

        def _parse_limit_amount_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit_amount_cents = _parse_limit_amount_cents(
            d.pop("limit_amount_cents", UNSET)
        )

        def _parse_max_allowed_now_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_allowed_now_cents = _parse_max_allowed_now_cents(
            d.pop("max_allowed_now_cents", UNSET)
        )

        _next_reset_at = d.pop("next_reset_at", UNSET)
        next_reset_at: datetime.datetime | Unset
        if isinstance(_next_reset_at, Unset):
            next_reset_at = UNSET
        else:
            next_reset_at = datetime.datetime.fromisoformat(_next_reset_at)

        def _parse_reason(data: object) -> DepositRefusal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = DepositRefusal(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DepositRefusal | None | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_user_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_message = _parse_user_message(d.pop("user_message", UNSET))

        def _parse_would_remain_cents(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        would_remain_cents = _parse_would_remain_cents(
            d.pop("would_remain_cents", UNSET)
        )

        deposit_check = cls(
            allowed=allowed,
            active_limits=active_limits,
            already_spent_cents=already_spent_cents,
            amount_cents=amount_cents,
            breached_limit_type=breached_limit_type,
            limit_amount_cents=limit_amount_cents,
            max_allowed_now_cents=max_allowed_now_cents,
            next_reset_at=next_reset_at,
            reason=reason,
            user_message=user_message,
            would_remain_cents=would_remain_cents,
        )

        deposit_check.additional_properties = d
        return deposit_check

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
