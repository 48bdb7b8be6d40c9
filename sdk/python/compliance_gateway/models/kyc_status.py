from enum import StrEnum


class KycStatus(StrEnum):
    APPROVED = "approved"
    EXPIRED = "expired"
    IN_PROGRESS = "in_progress"
    NOT_STARTED = "not_started"
    PENDING_REVIEW = "pending_review"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
