//! The compliance team's review work: when a case or a check is due, and
//! whether it is overdue.

use crate::sanctions::REVIEW_TARGET_SECONDS;
#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::review::*;

/// Each item's due time (the one it was given, else the review target from
/// when it began to wait) and whether it is overdue (still waiting at or after it).
pub fn describe_reviews(items: &[ReviewItem]) -> Vec<ReviewState> {
    items
        .iter()
        .map(|item| {
            let due_at = item.due_at.or_else(|| item.awaiting.then(|| item.waiting_since.saturating_add(REVIEW_TARGET_SECONDS)));
            ReviewState { due_at, overdue: item.awaiting && due_at.is_some_and(|due| due <= item.now) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(now: i64, awaiting: bool, due_at: Option<i64>) -> ReviewItem {
        ReviewItem { now, waiting_since: 1_000, due_at, awaiting }
    }

    #[test]
    fn due_at_the_review_target_and_overdue_from_then() {
        let due = 1_000 + REVIEW_TARGET_SECONDS;
        let states = describe_reviews(&[item(due - 1, true, None), item(due, true, None), item(due + 5, false, None)]);
        assert_eq!(states[0], ReviewState { due_at: Some(due), overdue: false });
        assert_eq!(states[1], ReviewState { due_at: Some(due), overdue: true });
        // decided: no longer due, never overdue
        assert_eq!(states[2], ReviewState { due_at: None, overdue: false });
    }

    #[test]
    fn a_given_due_time_stands() {
        let states = describe_reviews(&[item(5_000, true, Some(4_000)), item(3_000, true, Some(4_000)), item(9_000, false, Some(4_000))]);
        assert_eq!(states.iter().map(|s| s.overdue).collect::<Vec<_>>(), [true, false, false]);
        assert!(states.iter().all(|s| s.due_at == Some(4_000)));
    }
}
