from enum import StrEnum


class NameReading(StrEnum):
    AS_WRITTEN = "as_written"
    LOOK_ALIKE = "look_alike"
    LOOK_ALIKE_SPLIT = "look_alike_split"
    SPLIT = "split"
    TRANSLITERATED = "transliterated"
    TRANSLITERATED_SPLIT = "transliterated_split"

    def __str__(self) -> str:
        return str(self.value)
