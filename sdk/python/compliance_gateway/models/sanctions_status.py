from enum import StrEnum


class SanctionsStatus(StrEnum):
    CLEAR = "clear"
    CLEARED = "cleared"
    CONFIRMED = "confirmed"
    HIT_REVIEW_PENDING = "hit_review_pending"

    def __str__(self) -> str:
        return str(self.value)
