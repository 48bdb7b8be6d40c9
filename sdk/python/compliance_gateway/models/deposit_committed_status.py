from enum import StrEnum


class DepositCommittedStatus(StrEnum):
    COMMITTED = "committed"

    def __str__(self) -> str:
        return str(self.value)
