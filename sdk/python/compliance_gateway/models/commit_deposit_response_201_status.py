from enum import StrEnum


class CommitDepositResponse201Status(StrEnum):
    COMMITTED = "committed"

    def __str__(self) -> str:
        return str(self.value)
