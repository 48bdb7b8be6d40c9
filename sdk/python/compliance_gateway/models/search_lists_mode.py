from enum import StrEnum


class SearchListsMode(StrEnum):
    OFAC = "ofac"
    SCREENING = "screening"

    def __str__(self) -> str:
        return str(self.value)
