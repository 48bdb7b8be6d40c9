from enum import StrEnum


class AccountState(StrEnum):
    DISABLED = "disabled"
    ENABLED = "enabled"
    ENABLE_PROPOSED = "enable_proposed"

    def __str__(self) -> str:
        return str(self.value)
