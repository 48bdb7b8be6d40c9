from enum import StrEnum


class DeliveryStatus(StrEnum):
    ABANDONED = "abandoned"
    FAILED = "failed"
    PENDING = "pending"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
