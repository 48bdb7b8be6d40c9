from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_bundle_explanations_item import ReportBundleExplanationsItem
    from ..models.report_bundle_transactions_item import ReportBundleTransactionsItem


T = TypeVar("T", bound="ReportBundle")


@_attrs_define
class ReportBundle:
    """
    Attributes:
        case_id (str):
        decision_ids (list[str]):
        explanations (list[ReportBundleExplanationsItem]): every alert's decision with the rules' evidence
        narrative (Any):
        regulator_formats (list[str]): where this case can be reported, and how: drafted by the gateway
            (`POST /v1/admin/aml/cases/{case_id}/filings`) or entered by hand from this bundle
        rules_sha256 (str): the SHA-256 of the component the host runs; each decision names its own in the decision log
        status (str):
        tenant_id (str):
        transactions (list[ReportBundleTransactionsItem]): the user's events in the alerts' windows, as reported, each
            with its decision
        user_id (str):
    """

    case_id: str
    decision_ids: list[str]
    explanations: list[ReportBundleExplanationsItem]
    narrative: Any
    regulator_formats: list[str]
    rules_sha256: str
    status: str
    tenant_id: str
    transactions: list[ReportBundleTransactionsItem]
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        case_id = self.case_id

        decision_ids = self.decision_ids

        explanations = []
        for explanations_item_data in self.explanations:
            explanations_item = explanations_item_data.to_dict()
            explanations.append(explanations_item)

        narrative = self.narrative

        regulator_formats = self.regulator_formats

        rules_sha256 = self.rules_sha256

        status = self.status

        tenant_id = self.tenant_id

        transactions = []
        for transactions_item_data in self.transactions:
            transactions_item = transactions_item_data.to_dict()
            transactions.append(transactions_item)

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "case_id": case_id,
                "decision_ids": decision_ids,
                "explanations": explanations,
                "narrative": narrative,
                "regulator_formats": regulator_formats,
                "rules_sha256": rules_sha256,
                "status": status,
                "tenant_id": tenant_id,
                "transactions": transactions,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.report_bundle_explanations_item import (
            ReportBundleExplanationsItem,
        )
        from ..models.report_bundle_transactions_item import (
            ReportBundleTransactionsItem,
        )

        d = dict(src_dict)
        case_id = d.pop("case_id")

        decision_ids = cast(list[str], d.pop("decision_ids"))

        explanations = []
        _explanations = d.pop("explanations")
        for explanations_item_data in _explanations:
            explanations_item = ReportBundleExplanationsItem.from_dict(
                explanations_item_data
            )

            explanations.append(explanations_item)

        narrative = d.pop("narrative")

        regulator_formats = cast(list[str], d.pop("regulator_formats"))

        rules_sha256 = d.pop("rules_sha256")

        status = d.pop("status")

        tenant_id = d.pop("tenant_id")

        transactions = []
        _transactions = d.pop("transactions")
        for transactions_item_data in _transactions:
            transactions_item = ReportBundleTransactionsItem.from_dict(
                transactions_item_data
            )

            transactions.append(transactions_item)

        user_id = d.pop("user_id")

        report_bundle = cls(
            case_id=case_id,
            decision_ids=decision_ids,
            explanations=explanations,
            narrative=narrative,
            regulator_formats=regulator_formats,
            rules_sha256=rules_sha256,
            status=status,
            tenant_id=tenant_id,
            transactions=transactions,
            user_id=user_id,
        )

        report_bundle.additional_properties = d
        return report_bundle

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
