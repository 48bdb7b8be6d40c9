from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kyc_document import KycDocument
from ..models.kyc_status import KycStatus
from ..models.tier import Tier
from ..models.withdrawal_status import WithdrawalStatus

T = TypeVar("T", bound="KycCheck")


@_attrs_define
class KycCheck:
    """A check's status with the withdrawal behind it.

    Attributes:
        created_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        expires_at (datetime.datetime | None):
        kyc_check_id (str):
        required_documents (list[KycDocument]):
        required_tier (Tier): a KYC tier, keyed to lifetime withdrawals
        status (KycStatus): a verification check's status
        updated_at (datetime.datetime): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        user_id (str):
        withdrawal_held (bool):
        withdrawal_id (str): the withdrawal the check holds
        withdrawal_status (WithdrawalStatus): where a withdrawal stands
    """

    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    kyc_check_id: str
    required_documents: list[KycDocument]
    required_tier: Tier
    status: KycStatus
    updated_at: datetime.datetime
    user_id: str
    withdrawal_held: bool
    withdrawal_id: str
    withdrawal_status: WithdrawalStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        kyc_check_id = self.kyc_check_id

        required_documents = []
        for required_documents_item_data in self.required_documents:
            required_documents_item = required_documents_item_data.value
            required_documents.append(required_documents_item)

        required_tier = self.required_tier.value

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        user_id = self.user_id

        withdrawal_held = self.withdrawal_held

        withdrawal_id = self.withdrawal_id

        withdrawal_status = self.withdrawal_status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "expires_at": expires_at,
                "kyc_check_id": kyc_check_id,
                "required_documents": required_documents,
                "required_tier": required_tier,
                "status": status,
                "updated_at": updated_at,
                "user_id": user_id,
                "withdrawal_held": withdrawal_held,
                "withdrawal_id": withdrawal_id,
                "withdrawal_status": withdrawal_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        kyc_check_id = d.pop("kyc_check_id")

        required_documents = []
        _required_documents = d.pop("required_documents")
        for required_documents_item_data in _required_documents:
            required_documents_item = KycDocument(required_documents_item_data)

            required_documents.append(required_documents_item)

        required_tier = Tier(d.pop("required_tier"))

        status = KycStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        user_id = d.pop("user_id")

        withdrawal_held = d.pop("withdrawal_held")

        withdrawal_id = d.pop("withdrawal_id")

        withdrawal_status = WithdrawalStatus(d.pop("withdrawal_status"))

        kyc_check = cls(
            created_at=created_at,
            expires_at=expires_at,
            kyc_check_id=kyc_check_id,
            required_documents=required_documents,
            required_tier=required_tier,
            status=status,
            updated_at=updated_at,
            user_id=user_id,
            withdrawal_held=withdrawal_held,
            withdrawal_id=withdrawal_id,
            withdrawal_status=withdrawal_status,
        )

        kyc_check.additional_properties = d
        return kyc_check

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
