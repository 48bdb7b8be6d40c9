from enum import StrEnum


class AccessState(StrEnum):
    DELIVERED = "delivered"
    PREPARING = "preparing"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
