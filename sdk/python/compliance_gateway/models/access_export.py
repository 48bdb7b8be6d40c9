from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.access_export_deposit import AccessExportDeposit
    from ..models.access_export_event import AccessExportEvent
    from ..models.access_export_exclusion import AccessExportExclusion
    from ..models.access_export_identity import AccessExportIdentity
    from ..models.access_export_kyc_check import AccessExportKycCheck
    from ..models.access_export_limit import AccessExportLimit
    from ..models.access_export_register_check import AccessExportRegisterCheck
    from ..models.access_export_screening import AccessExportScreening
    from ..models.access_export_transaction import AccessExportTransaction
    from ..models.access_export_withdrawal import AccessExportWithdrawal


T = TypeVar("T", bound="AccessExport")


@_attrs_define
class AccessExport:
    """Everything the gateway holds about a player, record by record, as the
    operator sees it. Every export has every field (a kind with no records
    is an empty list) and the same `notice`.

        Attributes:
            deposits (list[AccessExportDeposit]):
            exclusions (list[AccessExportExclusion]):
            generated_at (str):
            identity (AccessExportIdentity): Who the player is, as the operator gave it.
            kyc_checks (list[AccessExportKycCheck]):
            limits (list[AccessExportLimit]):
            notice (str):
            register_checks (list[AccessExportRegisterCheck]):
            screening (AccessExportScreening): When the player was screened. Its standing is never carried: a standing
                shown only when clear would tell the others theirs by its absence.
            transactions (list[AccessExportTransaction]):
            user_id (str):
            webhook_events (list[AccessExportEvent]):
            withdrawals (list[AccessExportWithdrawal]):
    """

    deposits: list[AccessExportDeposit]
    exclusions: list[AccessExportExclusion]
    generated_at: str
    identity: AccessExportIdentity
    kyc_checks: list[AccessExportKycCheck]
    limits: list[AccessExportLimit]
    notice: str
    register_checks: list[AccessExportRegisterCheck]
    screening: AccessExportScreening
    transactions: list[AccessExportTransaction]
    user_id: str
    webhook_events: list[AccessExportEvent]
    withdrawals: list[AccessExportWithdrawal]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deposits = []
        for deposits_item_data in self.deposits:
            deposits_item = deposits_item_data.to_dict()
            deposits.append(deposits_item)

        exclusions = []
        for exclusions_item_data in self.exclusions:
            exclusions_item = exclusions_item_data.to_dict()
            exclusions.append(exclusions_item)

        generated_at = self.generated_at

        identity = self.identity.to_dict()

        kyc_checks = []
        for kyc_checks_item_data in self.kyc_checks:
            kyc_checks_item = kyc_checks_item_data.to_dict()
            kyc_checks.append(kyc_checks_item)

        limits = []
        for limits_item_data in self.limits:
            limits_item = limits_item_data.to_dict()
            limits.append(limits_item)

        notice = self.notice

        register_checks = []
        for register_checks_item_data in self.register_checks:
            register_checks_item = register_checks_item_data.to_dict()
            register_checks.append(register_checks_item)

        screening = self.screening.to_dict()

        transactions = []
        for transactions_item_data in self.transactions:
            transactions_item = transactions_item_data.to_dict()
            transactions.append(transactions_item)

        user_id = self.user_id

        webhook_events = []
        for webhook_events_item_data in self.webhook_events:
            webhook_events_item = webhook_events_item_data.to_dict()
            webhook_events.append(webhook_events_item)

        withdrawals = []
        for withdrawals_item_data in self.withdrawals:
            withdrawals_item = withdrawals_item_data.to_dict()
            withdrawals.append(withdrawals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deposits": deposits,
                "exclusions": exclusions,
                "generated_at": generated_at,
                "identity": identity,
                "kyc_checks": kyc_checks,
                "limits": limits,
                "notice": notice,
                "register_checks": register_checks,
                "screening": screening,
                "transactions": transactions,
                "user_id": user_id,
                "webhook_events": webhook_events,
                "withdrawals": withdrawals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_export_deposit import AccessExportDeposit
        from ..models.access_export_event import AccessExportEvent
        from ..models.access_export_exclusion import AccessExportExclusion
        from ..models.access_export_identity import AccessExportIdentity
        from ..models.access_export_kyc_check import AccessExportKycCheck
        from ..models.access_export_limit import AccessExportLimit
        from ..models.access_export_register_check import AccessExportRegisterCheck
        from ..models.access_export_screening import AccessExportScreening
        from ..models.access_export_transaction import AccessExportTransaction
        from ..models.access_export_withdrawal import AccessExportWithdrawal

        d = dict(src_dict)
        deposits = []
        _deposits = d.pop("deposits")
        for deposits_item_data in _deposits:
            deposits_item = AccessExportDeposit.from_dict(deposits_item_data)

            deposits.append(deposits_item)

        exclusions = []
        _exclusions = d.pop("exclusions")
        for exclusions_item_data in _exclusions:
            exclusions_item = AccessExportExclusion.from_dict(exclusions_item_data)

            exclusions.append(exclusions_item)

        generated_at = d.pop("generated_at")

        identity = AccessExportIdentity.from_dict(d.pop("identity"))

        kyc_checks = []
        _kyc_checks = d.pop("kyc_checks")
        for kyc_checks_item_data in _kyc_checks:
            kyc_checks_item = AccessExportKycCheck.from_dict(kyc_checks_item_data)

            kyc_checks.append(kyc_checks_item)

        limits = []
        _limits = d.pop("limits")
        for limits_item_data in _limits:
            limits_item = AccessExportLimit.from_dict(limits_item_data)

            limits.append(limits_item)

        notice = d.pop("notice")

        register_checks = []
        _register_checks = d.pop("register_checks")
        for register_checks_item_data in _register_checks:
            register_checks_item = AccessExportRegisterCheck.from_dict(
                register_checks_item_data
            )

            register_checks.append(register_checks_item)

        screening = AccessExportScreening.from_dict(d.pop("screening"))

        transactions = []
        _transactions = d.pop("transactions")
        for transactions_item_data in _transactions:
            transactions_item = AccessExportTransaction.from_dict(
                transactions_item_data
            )

            transactions.append(transactions_item)

        user_id = d.pop("user_id")

        webhook_events = []
        _webhook_events = d.pop("webhook_events")
        for webhook_events_item_data in _webhook_events:
            webhook_events_item = AccessExportEvent.from_dict(webhook_events_item_data)

            webhook_events.append(webhook_events_item)

        withdrawals = []
        _withdrawals = d.pop("withdrawals")
        for withdrawals_item_data in _withdrawals:
            withdrawals_item = AccessExportWithdrawal.from_dict(withdrawals_item_data)

            withdrawals.append(withdrawals_item)

        access_export = cls(
            deposits=deposits,
            exclusions=exclusions,
            generated_at=generated_at,
            identity=identity,
            kyc_checks=kyc_checks,
            limits=limits,
            notice=notice,
            register_checks=register_checks,
            screening=screening,
            transactions=transactions,
            user_id=user_id,
            webhook_events=webhook_events,
            withdrawals=withdrawals,
        )

        access_export.additional_properties = d
        return access_export

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
