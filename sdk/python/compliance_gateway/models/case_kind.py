from enum import StrEnum


class CaseKind(StrEnum):
    ENHANCED_DUE_DILIGENCE = "enhanced_due_diligence"
    SANCTIONS_HIT = "sanctions_hit"

    def __str__(self) -> str:
        return str(self.value)
