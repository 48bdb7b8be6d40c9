from enum import StrEnum


class ListCaseQueueStatus(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    PENDING_APPROVAL = "pending_approval"

    def __str__(self) -> str:
        return str(self.value)
