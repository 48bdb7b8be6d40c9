from enum import StrEnum


class Spelling(StrEnum):
    ABJAD = "abjad"
    ARABIC = "arabic"
    AS_WRITTEN = "as_written"
    CYRILLIC_ENGLISH = "cyrillic_english"
    CYRILLIC_FRENCH = "cyrillic_french"
    CYRILLIC_GERMAN = "cyrillic_german"
    KOREAN = "korean"

    def __str__(self) -> str:
        return str(self.value)
