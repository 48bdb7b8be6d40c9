from enum import StrEnum


class ExclusionReason(StrEnum):
    OPERATOR_INITIATED = "operator_initiated"
    SELF_INITIATED = "self_initiated"

    def __str__(self) -> str:
        return str(self.value)
