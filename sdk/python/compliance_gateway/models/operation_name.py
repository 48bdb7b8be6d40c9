from enum import StrEnum


class OperationName(StrEnum):
    ACCESS_REQUEST = "access_request"
    AML = "aml"
    AML_REVIEW = "aml_review"
    CASE_REVIEW = "case_review"
    DEPOSIT = "deposit"
    DUE_NOW = "due_now"
    ERASURE_PLAN = "erasure_plan"
    EXCLUSION = "exclusion"
    EXCLUSION_STATUS = "exclusion_status"
    FILING_CODES = "filing_codes"
    KYC = "kyc"
    LIMITS = "limits"
    LIMIT_CANCEL = "limit_cancel"
    LIMIT_CHANGE = "limit_change"
    REGISTER_CHECK = "register_check"
    REGULATOR_IMPORT = "regulator_import"
    SANCTIONS = "sanctions"
    SCREENING = "screening"
    TIER = "tier"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)
