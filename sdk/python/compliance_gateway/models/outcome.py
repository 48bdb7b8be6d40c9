from enum import StrEnum


class Outcome(StrEnum):
    APPROVE = "approve"
    CONFIRMED = "confirmed"
    FALSE_POSITIVE = "false_positive"
    REJECT = "reject"
    RELEASE = "release"
    TRUE_MATCH = "true_match"

    def __str__(self) -> str:
        return str(self.value)
