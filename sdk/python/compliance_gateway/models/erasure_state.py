from enum import StrEnum


class ErasureState(StrEnum):
    ERASED = "erased"
    HELD = "held"
    VALIDATING = "validating"

    def __str__(self) -> str:
        return str(self.value)
