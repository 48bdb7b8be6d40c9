from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.environment import Environment
from ..models.operation_name import OperationName

T = TypeVar("T", bound="GetDecisionResponse200")


@_attrs_define
class GetDecisionResponse200:
    """A recorded decision as the API shows it.

    Attributes:
        decided_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        decision_id (str):
        environment (Environment): a tenant's environment
        input_ (Any): the facts the rules were given
        operation (OperationName): the rules decision: one per exported call of the component
        output (Any): what the rules answered
        rules_sha256 (str): the SHA-256 of the rules component that decided
        rules_version (str):
        tenant_id (str):
        user_id (None | str): `null` for a decision about no one user
    """

    decided_at: datetime.datetime
    decision_id: str
    environment: Environment
    input_: Any
    operation: OperationName
    output: Any
    rules_sha256: str
    rules_version: str
    tenant_id: str
    user_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decided_at = self.decided_at.isoformat()

        decision_id = self.decision_id

        environment = self.environment.value

        input_ = self.input_

        operation = self.operation.value

        output = self.output

        rules_sha256 = self.rules_sha256

        rules_version = self.rules_version

        tenant_id = self.tenant_id

        user_id: None | str
        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decided_at": decided_at,
                "decision_id": decision_id,
                "environment": environment,
                "input": input_,
                "operation": operation,
                "output": output,
                "rules_sha256": rules_sha256,
                "rules_version": rules_version,
                "tenant_id": tenant_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decided_at = datetime.datetime.fromisoformat(d.pop("decided_at"))

        decision_id = d.pop("decision_id")

        environment = Environment(d.pop("environment"))

        input_ = d.pop("input")

        operation = OperationName(d.pop("operation"))

        output = d.pop("output")

        rules_sha256 = d.pop("rules_sha256")

        rules_version = d.pop("rules_version")

        tenant_id = d.pop("tenant_id")

        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))

        get_decision_response_200 = cls(
            decided_at=decided_at,
            decision_id=decision_id,
            environment=environment,
            input_=input_,
            operation=operation,
            output=output,
            rules_sha256=rules_sha256,
            rules_version=rules_version,
            tenant_id=tenant_id,
            user_id=user_id,
        )

        get_decision_response_200.additional_properties = d
        return get_decision_response_200

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
