from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScheduledRun")


@_attrs_define
class ScheduledRun:
    """What one run of the scheduled work did.

    Attributes:
        exclusions_expired (int):
        kyc_checks_expired (int):
        limits_activated (int):
        list_chunks_loaded (int):
        lists_activated (int):
        register_batch_players (int): players the national registers' nightly batch asked about this round
        rescreen_errors (int): re-screens that failed; the round went on without them
        snapshots_taken (int):
        users_rescreened (int):
        webhook_attempts (int):
        webhook_events_fanned_out (int):
    """

    exclusions_expired: int
    kyc_checks_expired: int
    limits_activated: int
    list_chunks_loaded: int
    lists_activated: int
    register_batch_players: int
    rescreen_errors: int
    snapshots_taken: int
    users_rescreened: int
    webhook_attempts: int
    webhook_events_fanned_out: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exclusions_expired = self.exclusions_expired

        kyc_checks_expired = self.kyc_checks_expired

        limits_activated = self.limits_activated

        list_chunks_loaded = self.list_chunks_loaded

        lists_activated = self.lists_activated

        register_batch_players = self.register_batch_players

        rescreen_errors = self.rescreen_errors

        snapshots_taken = self.snapshots_taken

        users_rescreened = self.users_rescreened

        webhook_attempts = self.webhook_attempts

        webhook_events_fanned_out = self.webhook_events_fanned_out

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exclusions_expired": exclusions_expired,
                "kyc_checks_expired": kyc_checks_expired,
                "limits_activated": limits_activated,
                "list_chunks_loaded": list_chunks_loaded,
                "lists_activated": lists_activated,
                "register_batch_players": register_batch_players,
                "rescreen_errors": rescreen_errors,
                "snapshots_taken": snapshots_taken,
                "users_rescreened": users_rescreened,
                "webhook_attempts": webhook_attempts,
                "webhook_events_fanned_out": webhook_events_fanned_out,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        exclusions_expired = d.pop("exclusions_expired")

        kyc_checks_expired = d.pop("kyc_checks_expired")

        limits_activated = d.pop("limits_activated")

        list_chunks_loaded = d.pop("list_chunks_loaded")

        lists_activated = d.pop("lists_activated")

        register_batch_players = d.pop("register_batch_players")

        rescreen_errors = d.pop("rescreen_errors")

        snapshots_taken = d.pop("snapshots_taken")

        users_rescreened = d.pop("users_rescreened")

        webhook_attempts = d.pop("webhook_attempts")

        webhook_events_fanned_out = d.pop("webhook_events_fanned_out")

        scheduled_run = cls(
            exclusions_expired=exclusions_expired,
            kyc_checks_expired=kyc_checks_expired,
            limits_activated=limits_activated,
            list_chunks_loaded=list_chunks_loaded,
            lists_activated=lists_activated,
            register_batch_players=register_batch_players,
            rescreen_errors=rescreen_errors,
            snapshots_taken=snapshots_taken,
            users_rescreened=users_rescreened,
            webhook_attempts=webhook_attempts,
            webhook_events_fanned_out=webhook_events_fanned_out,
        )

        scheduled_run.additional_properties = d
        return scheduled_run

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
