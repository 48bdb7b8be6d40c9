from enum import StrEnum


class Duration(StrEnum):
    DURATION_1Y = "duration_1y"
    DURATION_24H = "duration_24h"
    DURATION_30D = "duration_30d"
    DURATION_6M = "duration_6m"
    DURATION_7D = "duration_7d"
    DURATION_PERMANENT = "duration_permanent"

    def __str__(self) -> str:
        return str(self.value)
