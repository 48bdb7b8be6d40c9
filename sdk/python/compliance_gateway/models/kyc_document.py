from enum import StrEnum


class KycDocument(StrEnum):
    EMAIL_OTP = "email_otp"
    GOVERNMENT_ID = "government_id"
    PHONE_OTP = "phone_otp"
    PROOF_OF_ADDRESS = "proof_of_address"
    SELFIE = "selfie"
    SOURCE_OF_FUNDS = "source_of_funds"

    def __str__(self) -> str:
        return str(self.value)
