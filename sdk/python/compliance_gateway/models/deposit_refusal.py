from enum import StrEnum


class DepositRefusal(StrEnum):
    ACCOUNT_UNDER_REVIEW = "account_under_review"
    EXCEEDS_LIMIT = "exceeds_limit"
    SELF_EXCLUDED = "self_excluded"
    VERIFICATION_REQUIRED = "verification_required"

    def __str__(self) -> str:
        return str(self.value)
