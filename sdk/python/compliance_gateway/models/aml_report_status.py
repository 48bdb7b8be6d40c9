from enum import StrEnum


class AmlReportStatus(StrEnum):
    ACCEPTED = "accepted"

    def __str__(self) -> str:
        return str(self.value)
