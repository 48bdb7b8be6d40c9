from enum import StrEnum


class LimitType(StrEnum):
    LIMIT_DAILY = "limit_daily"
    LIMIT_MONTHLY = "limit_monthly"
    LIMIT_WEEKLY = "limit_weekly"

    def __str__(self) -> str:
        return str(self.value)
