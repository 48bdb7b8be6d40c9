from enum import StrEnum


class CommitDepositResponse200Status(StrEnum):
    COMMITTED = "committed"

    def __str__(self) -> str:
        return str(self.value)
