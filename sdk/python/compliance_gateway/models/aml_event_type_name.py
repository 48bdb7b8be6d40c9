from enum import StrEnum


class AmlEventTypeName(StrEnum):
    BONUS = "bonus"
    DEPOSIT = "deposit"
    INSTRUMENT_ADDED = "instrument_added"
    P2P_TRANSFER = "p2p_transfer"
    WAGER = "wager"
    WIN = "win"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)
