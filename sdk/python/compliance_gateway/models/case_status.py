from enum import StrEnum


class CaseStatus(StrEnum):
    CONFIRMED = "confirmed"
    DISMISSED = "dismissed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
