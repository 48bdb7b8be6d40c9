from enum import StrEnum


class KycEscalation(StrEnum):
    REVIEW_OVERDUE = "review_overdue"
    VENDOR_RETRY = "vendor_retry"

    def __str__(self) -> str:
        return str(self.value)
