from enum import StrEnum


class WithdrawalStatus(StrEnum):
    BLOCKED = "blocked"
    CANCELLED = "cancelled"
    HELD = "held"
    RELEASED = "released"

    def __str__(self) -> str:
        return str(self.value)
