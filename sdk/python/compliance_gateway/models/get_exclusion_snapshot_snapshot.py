from enum import StrEnum


class GetExclusionSnapshotSnapshot(StrEnum):
    DAILY = "daily"
    LIVE = "live"

    def __str__(self) -> str:
        return str(self.value)
