//! National self-exclusion registers (GAMSTOP, Spelpaus, ROFUS, CRUKS):
//! what a check asks and what its answers mean for play and marketing.

use alloc::vec::Vec;

use crate::types::named_enum;
use crate::ExclusionTerm;
use serde::{Deserialize, Serialize};

named_enum!(
    /// A national register an operator may be bound to consult.
    NationalRegister { Spelpaus = "spelpaus", Gamstop = "gamstop", Rofus = "rofus", Cruks = "cruks" }
);

named_enum!(
    /// Why a check is made: each register may serve some purposes only
    /// (Spelpaus's login and marketing APIs are separate since SIFS 2026:3).
    CheckPurpose { Registration = "registration", Login = "login", Deposit = "deposit", Marketing = "marketing" }
);

named_enum!(
    /// One register's answer to one check. `previously_excluded`: excluded
    /// once, the exclusion lapsed (GAMSTOP `P`), so play but no marketing.
    /// `unavailable`: no usable answer (an outage, a timeout, a refusal, a
    /// malformed answer), never read as not excluded.
    RegisterStatus {
        Excluded = "excluded",
        NotExcluded = "not_excluded",
        PreviouslyExcluded = "previously_excluded",
        Unavailable = "unavailable",
    }
);

named_enum!(
    /// What an unavailable register means for the check. `refuse` (the
    /// default, and Sweden's law): the check is not complete, so the player
    /// is refused. `allow_flagged`: let through, flagged, not marketed to.
    OutagePolicy { Refuse = "refuse", AllowFlagged = "allow_flagged" }
);

named_enum!(
    /// A national identifier a register takes.
    NationalIdKind { Personnummer = "personnummer", Bsn = "bsn", Cpr = "cpr" }
);

/// One national register's answer, with the tenant's policy for its outage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterAnswer {
    pub register: NationalRegister,
    pub status: RegisterStatus,
    pub on_outage: OutagePolicy,
    /// the player's play standing at the register before this check
    /// (`unavailable`: none known, as an outage changes none)
    pub standing: RegisterStatus,
}

/// A check's facts: the shared register's exclusions matching the player
/// (by id at the tenant, by e-mail or phone in the environment), active or
/// not, and each national register's answer for the purpose. No identifier
/// of the player is among them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterCheckFacts {
    pub now: i64,
    pub purpose: CheckPurpose,
    pub exclusions: Vec<ExclusionTerm>,
    pub answers: Vec<RegisterAnswer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterCheckDecision {
    /// the shared register's answer: `excluded` while an exclusion is active
    pub shared: RegisterStatus,
    /// the player may not play (or, for marketing, be marketed to)
    pub excluded: bool,
    pub marketing_allowed: bool,
    /// the answers become the player's play standings: a registration,
    /// login or deposit check (a marketing API answers another question)
    pub sets_standing: bool,
    /// the registers that now exclude a player whose standing there was
    /// not excluded: each is told to the operator (`exclusion.created`)
    pub newly_excluded: Vec<NationalRegister>,
}
