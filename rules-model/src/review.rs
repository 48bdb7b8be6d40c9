//! The compliance team's review work: when a case or a check is due, and
//! whether it is overdue.

use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use crate::*;

/// A case or check in a review list, on its tenant's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewItem {
    pub now: i64,
    /// when the item began to wait for a reviewer
    pub waiting_since: i64,
    /// the due time set when it was opened, if any
    pub due_at: Option<i64>,
    /// whether it still waits for a reviewer
    pub awaiting: bool,
}

/// When an item is due and whether that time has passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewState {
    /// `None` for an item that no longer waits and had no due time
    pub due_at: Option<i64>,
    pub overdue: bool,
}
