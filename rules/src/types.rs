//! The vocabulary every decision shares: environments, sanctions statuses,
//! event kinds and the operations of the decision log.

#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::types::*;

/// The rules about a [`SanctionsStatus`].
pub trait SanctionsStatusRules {
    fn holds_transactions(self) -> bool;
}

impl SanctionsStatusRules for SanctionsStatus {
    /// Whether every transaction of the user is held: under review, or a confirmed match.
    fn holds_transactions(self) -> bool {
        matches!(self, SanctionsStatus::HitReviewPending | SanctionsStatus::Confirmed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_is_rejected() {
        for s in SanctionsStatus::ALL {
            assert_eq!(SanctionsStatus::parse(s.as_str()), Some(*s));
        }
        for e in EventKind::ALL {
            assert_eq!(EventKind::parse(e.as_str()), Some(*e));
        }
        for o in Operation::ALL {
            assert_eq!(Operation::parse(o.as_str()), Some(*o));
        }
        assert_eq!(SanctionsStatus::parse("Clear"), None);
        assert_eq!(EventKind::parse("limit.breached"), None);
    }

    #[test]
    fn only_review_and_confirmed_hold_transactions() {
        assert!(SanctionsStatus::HitReviewPending.holds_transactions());
        assert!(SanctionsStatus::Confirmed.holds_transactions());
        assert!(!SanctionsStatus::Clear.holds_transactions());
        assert!(!SanctionsStatus::Cleared.holds_transactions());
    }
}
