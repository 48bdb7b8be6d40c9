from enum import StrEnum


class AmlOutcomeName(StrEnum):
    APPROVE = "approve"
    DECLINE = "decline"
    HOLD_WITHDRAWAL = "hold_withdrawal"
    REVIEW = "review"

    def __str__(self) -> str:
        return str(self.value)
