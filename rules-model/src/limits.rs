//! Deposit limits: cool-off brackets, the rolling-window check, the deposit
//! gate, limit changes and their cancellation.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

named_enum!(
    /// A deposit limit's rolling window.
    LimitWindow { Daily = "limit_daily", Weekly = "limit_weekly", Monthly = "limit_monthly" }
);

named_enum!(
    /// A stored limit's status: in force from `effective_from`, a pending increase before it, or cancelled.
    LimitStatus { Active = "active", Pending = "pending", Cancelled = "cancelled" }
);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deposit {
    pub amount_cents: i64,
    pub at: i64,
}

/// Deposits as parallel lists, amounts, unix-second times and currencies,
/// so that they cross the component boundary as flat arrays.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deposits {
    pub amount_cents: Vec<i64>,
    pub at: Vec<i64>,
    /// each deposit's ISO 4217 currency; none (decisions logged before
    /// currencies were facts, or a shorter list): the limit's currency
    #[serde(default)]
    pub currency: Vec<String>,
}

impl Deposits {
    pub fn iter(&self) -> impl Iterator<Item = Deposit> + '_ {
        self.amount_cents.iter().zip(&self.at).map(|(a, t)| Deposit { amount_cents: *a, at: *t })
    }
    /// Each deposit with its currency (empty: the limit's).
    pub fn iter_in_currencies(&self) -> impl Iterator<Item = (Deposit, &str)> + '_ {
        self.iter().enumerate().map(|(i, d)| (d, self.currency.get(i).map_or("", String::as_str)))
    }
    pub fn push(&mut self, d: Deposit) {
        self.amount_cents.push(d.amount_cents);
        self.at.push(d.at);
    }
    /// Adds a deposit in `currency`; every deposit before it must have one too.
    pub fn push_in(&mut self, d: Deposit, currency: &str) {
        self.push(d);
        self.currency.push(currency.into());
    }
}

impl FromIterator<Deposit> for Deposits {
    fn from_iter<I: IntoIterator<Item = Deposit>>(iter: I) -> Self {
        let mut d = Deposits::default();
        for deposit in iter {
            d.push(deposit);
        }
        d
    }
}

/// What the store summed of one window's deposits in one currency: those
/// dated after `now` less the window's length, however recent (as
/// [`inside`] counts). A window has one total per currency deposited in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowTotal {
    pub window: LimitWindow,
    pub spent_cents: i64,
    pub oldest_at: Option<i64>,
    pub newest_at: Option<i64>,
    /// the deposits' ISO 4217 currency; empty (decisions logged before
    /// currencies were facts): the limit's currency
    #[serde(default)]
    pub currency: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepositBreach {
    pub window: LimitWindow,
    pub limit_cents: i64,
    pub already_spent_cents: i64,
    pub max_allowed_now_cents: i64,
    /// unix seconds at which the proposed amount would fit again
    pub next_reset_at: i64,
}

/// A limit row as stored, with whether it is kept in the currency of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredLimit {
    pub window: LimitWindow,
    pub amount_cents: i64,
    pub same_currency: bool,
    pub status: LimitStatus,
    pub effective_from: i64,
    /// the ISO 4217 currency the limit is kept in; empty (decisions logged
    /// before it was a fact): every deposit counts in it at par
    #[serde(default)]
    pub currency: String,
}

/// Which windows have a limit in force.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowSet {
    pub daily: bool,
    pub weekly: bool,
    pub monthly: bool,
}

impl WindowSet {
    pub fn insert(&mut self, w: LimitWindow) {
        match w {
            LimitWindow::Daily => self.daily = true,
            LimitWindow::Weekly => self.weekly = true,
            LimitWindow::Monthly => self.monthly = true,
        }
    }
    pub fn windows(self) -> impl Iterator<Item = LimitWindow> {
        [(self.daily, LimitWindow::Daily), (self.weekly, LimitWindow::Weekly), (self.monthly, LimitWindow::Monthly)]
            .into_iter()
            .filter_map(|(on, w)| on.then_some(w))
    }
}

/// Everything that stands between a player and a deposit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepositFacts {
    pub now: i64,
    pub sanctions: SanctionsStatus,
    /// every exclusion matching the player by id, e-mail or phone, active or not
    pub exclusions: Vec<ExclusionTerm>,
    /// the player's limit rows, oldest first
    pub limits: Vec<StoredLimit>,
    /// the spend of each window, from the store
    #[serde(default)]
    pub totals: Vec<WindowTotal>,
    /// every deposit of the longest window: given only after a decision asked
    /// for them ([`DepositDecision::NeedsDeposits`]); when given, the totals are not used
    pub deposits: Option<Deposits>,
    pub amount_cents: i64,
    /// the player's verified KYC tier
    #[serde(default = "crate::limits::no_tier")]
    pub verified: KycTier,
    /// what AML monitoring decided for the player: a lock until due
    /// diligence stops deposits too only where the profile says so
    #[serde(default)]
    pub aml: AmlStanding,
    /// the tenant's jurisdiction profile (`default` for decisions logged before it was a fact)
    #[serde(default = "crate::jurisdictions::default_jurisdiction")]
    pub jurisdiction: String,
    /// the reference rates (AML's, each naming its version) from each
    /// currency deposited in a window into each limit's currency, of the
    /// decision's day; a pair missing where a deposit needs it refuses
    /// the decision ([`crate::RuleError::NoReferenceRate`])
    #[serde(default)]
    pub rates: Vec<AmlRate>,
    /// the national registers whose latest check found the player excluded
    #[serde(default)]
    pub registers: Vec<crate::NationalRegister>,
}

pub(crate) fn no_tier() -> KycTier {
    KycTier::Tier0
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepositAllowed {
    /// smallest headroom left across the limits; none when no limit applies
    pub would_remain_cents: Option<i64>,
    pub active: WindowSet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DepositDecision {
    Allowed(DepositAllowed),
    /// a sanctions hold: under review or confirmed
    Held,
    /// an active self-exclusion
    Excluded,
    /// a limit in force is kept in another currency
    CurrencyMismatch(LimitWindow),
    /// the deposit would breach a limit; fires `limit.breach_attempt`
    Breach(DepositBreach),
    /// a limit is breached and the time it frees up needs single deposits:
    /// ask again with [`DepositFacts::deposits`]
    NeedsDeposits,
    /// customer due diligence is due at this tier, and the profile's
    /// regulator allows no deposit until it is done
    VerificationRequired(KycTier),
}

/// A request to set a limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitChangeFacts {
    pub now: i64,
    pub requested_at: i64,
    pub window: LimitWindow,
    pub amount_cents: i64,
    /// the user's limit rows of every window, oldest first
    pub limits: Vec<StoredLimit>,
    /// the tenant's jurisdiction profile (`default` for decisions logged before profiles)
    #[serde(default = "crate::jurisdictions::default_jurisdiction")]
    pub jurisdiction: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitChange {
    /// index of the limit in force, if any
    pub current: Option<u32>,
    pub is_increase: bool,
    pub cooloff_seconds: i64,
    pub effective_from: i64,
    pub status: LimitStatus,
    /// the event of the new limit
    pub event: Option<EventKind>,
    /// a pending increase this change cancels (fires `limit.cancelled`)
    pub cancel_pending: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitChangeDecision {
    /// the amount is below the smallest limit, given in cents
    BelowMinimum(i64),
    /// the limit in force is kept in another currency
    CurrencyMismatch,
    /// the same increase is already pending: answer with that row
    ReplayPending(u32),
    /// another increase is pending
    PendingChangeExists,
    /// the limit in force already has this amount: answer with that row
    Unchanged(u32),
    Apply(LimitChange),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitCancelFacts {
    pub now: i64,
    pub limit: StoredLimit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitCancelDecision {
    /// cancel it; fires `limit.cancelled`
    Cancel,
    AlreadyCancelled,
    /// only a pending increase can be cancelled
    NotPending,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitsFacts {
    pub now: i64,
    pub limits: Vec<StoredLimit>,
    /// the spend of each window, from the store
    #[serde(default)]
    pub totals: Vec<WindowTotal>,
    /// every deposit of the longest window; when given, the totals are not used
    pub deposits: Option<Deposits>,
    /// the reference rates into each limit's currency, as [`DepositFacts::rates`]
    #[serde(default)]
    pub rates: Vec<AmlRate>,
}

/// A window with a limit in force, its spend and its pending change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitView {
    pub window: LimitWindow,
    pub in_force: u32,
    pub pending: Option<u32>,
    pub spent_cents: i64,
    pub remaining_cents: i64,
    pub next_reset_at: Option<i64>,
}
