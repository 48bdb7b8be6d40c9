from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.get_aml_report_bundle_response_200_explanations_item import (
        GetAmlReportBundleResponse200ExplanationsItem,
    )
    from ..models.get_aml_report_bundle_response_200_transactions_item import (
        GetAmlReportBundleResponse200TransactionsItem,
    )


T = TypeVar("T", bound="GetAmlReportBundleResponse200")


@_attrs_define
class GetAmlReportBundleResponse200:
    """
    Attributes:
        case_id (str):
        decision_ids (list[str]):
        explanations (list[GetAmlReportBundleResponse200ExplanationsItem]): every alert's decision with the rules'
            evidence
        narrative (Any):
        regulator_formats (list[str]): where this case can be reported, and how: drafted by the gateway
            (`POST /v1/admin/aml/cases/{case_id}/filings`) or entered by hand from this bundle
        rules_sha256 (str): the SHA-256 of the component the host runs; each decision names its own in the decision log
        status (str):
        tenant_id (str):
        transactions (list[GetAmlReportBundleResponse200TransactionsItem]): the user's events in the alerts' windows, as
            reported, each with its decision
        user_id (str):
    """

    case_id: str
    decision_ids: list[str]
    explanations: list[GetAmlReportBundleResponse200ExplanationsItem]
    narrative: Any
    regulator_formats: list[str]
    rules_sha256: str
    status: str
    tenant_id: str
    transactions: list[GetAmlReportBundleResponse200TransactionsItem]
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
        from ..models.get_aml_report_bundle_response_200_explanations_item import (
            GetAmlReportBundleResponse200ExplanationsItem,
        )
        from ..models.get_aml_report_bundle_response_200_transactions_item import (
            GetAmlReportBundleResponse200TransactionsItem,
        )

        d = dict(src_dict)
        case_id = d.pop("case_id")

        decision_ids = cast(list[str], d.pop("decision_ids"))

        explanations = []
        _explanations = d.pop("explanations")
        for explanations_item_data in _explanations:
            explanations_item = GetAmlReportBundleResponse200ExplanationsItem.from_dict(
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
            transactions_item = GetAmlReportBundleResponse200TransactionsItem.from_dict(
                transactions_item_data
            )

            transactions.append(transactions_item)

        user_id = d.pop("user_id")

        get_aml_report_bundle_response_200 = cls(
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

        get_aml_report_bundle_response_200.additional_properties = d
        return get_aml_report_bundle_response_200

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
