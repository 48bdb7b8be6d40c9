from enum import StrEnum


class LimitCancelledStatus(StrEnum):
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)
