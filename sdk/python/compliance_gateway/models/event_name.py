from enum import StrEnum


class EventName(StrEnum):
    AML_ALERT_CREATED = "aml.alert_created"
    EXCLUSION_CREATED = "exclusion.created"
    EXCLUSION_EXPIRED = "exclusion.expired"
    EXCLUSION_KGC_SYNCED = "exclusion.kgc_synced"
    EXCLUSION_PERMANENT = "exclusion.permanent"
    KYC_APPROVED = "kyc.approved"
    KYC_EXPIRED = "kyc.expired"
    KYC_REJECTED = "kyc.rejected"
    KYC_STARTED = "kyc.started"
    KYC_SUBMITTED = "kyc.submitted"
    KYC_TIER_UPGRADED = "kyc.tier_upgraded"
    LIMIT_ACTIVATED = "limit.activated"
    LIMIT_BREACH_ATTEMPT = "limit.breach_attempt"
    LIMIT_CANCELLED = "limit.cancelled"
    LIMIT_CREATED = "limit.created"
    LIMIT_DECREASED = "limit.decreased"
    SANCTIONS_ACCOUNT_FROZEN = "sanctions.account_frozen"
    SANCTIONS_CLEARED = "sanctions.cleared"
    SANCTIONS_CONFIRMED = "sanctions.confirmed"
    SANCTIONS_HIT = "sanctions.hit"
    SCREENING_ADVERSE_MEDIA_MATCH = "screening.adverse_media_match"
    SCREENING_PEP_MATCH = "screening.pep_match"
    USER_ERASURE_COMPLETED = "user.erasure_completed"

    def __str__(self) -> str:
        return str(self.value)
