from enum import StrEnum


class EntryTopic(StrEnum):
    ADVERSE_MEDIA = "adverse_media"
    PEP = "pep"
    SANCTION = "sanction"

    def __str__(self) -> str:
        return str(self.value)
