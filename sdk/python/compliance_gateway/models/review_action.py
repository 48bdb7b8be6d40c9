from enum import StrEnum


class ReviewAction(StrEnum):
    CONFIRM = "confirm"
    DISMISS = "dismiss"

    def __str__(self) -> str:
        return str(self.value)
