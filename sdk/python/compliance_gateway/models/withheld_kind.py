from enum import StrEnum


class WithheldKind(StrEnum):
    AML_ALERT = "aml_alert"
    AML_CASE = "aml_case"
    CASE_NOTE = "case_note"
    FILING = "filing"
    HOLD_REASON = "hold_reason"
    SCREENING_STANDING = "screening_standing"
    WEBHOOK_EVENT = "webhook_event"

    def __str__(self) -> str:
        return str(self.value)
