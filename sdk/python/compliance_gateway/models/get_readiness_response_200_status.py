from enum import StrEnum


class GetReadinessResponse200Status(StrEnum):
    NOT_READY = "not_ready"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
