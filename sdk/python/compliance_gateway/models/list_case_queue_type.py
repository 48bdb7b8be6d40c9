from enum import StrEnum


class ListCaseQueueType(StrEnum):
    ACCESS_REQUEST = "access_request"
    AML_ALERT = "aml_alert"
    ENHANCED_DUE_DILIGENCE = "enhanced_due_diligence"
    KYC_REVIEW = "kyc_review"
    SANCTIONS_HIT = "sanctions_hit"

    def __str__(self) -> str:
        return str(self.value)
