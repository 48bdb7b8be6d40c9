from enum import StrEnum


class EventKind(StrEnum):
    APPROVED = "approved"
    ASSIGNED = "assigned"
    COMMENTED = "commented"
    OPENED = "opened"
    PROPOSAL_DROPPED = "proposal_dropped"
    PROPOSAL_REJECTED = "proposal_rejected"
    PROPOSED = "proposed"
    TAGGED = "tagged"
    UNASSIGNED = "unassigned"

    def __str__(self) -> str:
        return str(self.value)
