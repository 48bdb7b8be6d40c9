from enum import StrEnum


class PaymentMethodName(StrEnum):
    BANK_TRANSFER = "bank_transfer"
    CARD = "card"
    CASH = "cash"
    CRYPTO = "crypto"
    E_WALLET = "e_wallet"
    OTHER = "other"

    def __str__(self) -> str:
        return str(self.value)
