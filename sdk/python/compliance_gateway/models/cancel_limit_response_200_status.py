from enum import StrEnum


class CancelLimitResponse200Status(StrEnum):
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)
