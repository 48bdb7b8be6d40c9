//! Deposit limits: cool-off brackets, the rolling-window check, the deposit
//! gate, limit changes and their cancellation.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::aml::AmlStanding;
use crate::exclusions::{exclusion_status_of, ExclusionTerm};
use crate::kyc::KycTier;
use crate::types::{named_enum, EventKind, SanctionsStatus};
use crate::{non_negative_amount, positive_amount, saturating_sum, RuleError, DAY};

named_enum!(
    /// A deposit limit's rolling window.
    LimitWindow { Daily = "limit_daily", Weekly = "limit_weekly", Monthly = "limit_monthly" }
);

named_enum!(
    /// A stored limit's status: in force from `effective_from`, a pending increase before it, or cancelled.
    LimitStatus { Active = "active", Pending = "pending", Cancelled = "cancelled" }
);

pub const COOLOFF_UP_TO_2X: i64 = DAY;
pub const COOLOFF_UP_TO_5X: i64 = 2 * DAY;
pub const COOLOFF_ABOVE_5X: i64 = 7 * DAY;
/// The smallest limit a player can set: one major unit.
pub const MIN_LIMIT_CENTS: i64 = 100;

/// Length of a rolling window: 24 hours, 7 days or 30 days.
pub fn window_seconds(window: LimitWindow) -> i64 {
    match window {
        LimitWindow::Daily => DAY,
        LimitWindow::Weekly => 7 * DAY,
        LimitWindow::Monthly => 30 * DAY,
    }
}

/// The longest window: deposits older than this never count.
pub fn longest_window_seconds() -> i64 {
    LimitWindow::ALL.iter().map(|w| window_seconds(*w)).max().unwrap_or(0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cooloff {
    pub is_increase: bool,
    pub cooloff_seconds: i64,
}

/// The cool-off for a limit change. First sets and decreases (and an
/// unchanged amount) are instant; an increase waits as the jurisdiction's
/// profile says (the default: 24 hours up to and including 2x, 48 hours up
/// to and including 5x, 7 days above).
pub fn limit_cooloff(jurisdiction: &str, current_cents: Option<i64>, requested_cents: i64) -> Result<Cooloff, RuleError> {
    let requested = positive_amount(requested_cents)?;
    let Some(current) = current_cents else {
        return Ok(Cooloff { is_increase: false, cooloff_seconds: 0 });
    };
    let current = non_negative_amount(current)?;
    if requested <= current {
        return Ok(Cooloff { is_increase: false, cooloff_seconds: 0 });
    }
    Ok(Cooloff { is_increase: true, cooloff_seconds: crate::jurisdictions::increase_cooloff(jurisdiction, current, requested) })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepositLimit {
    pub window: LimitWindow,
    pub amount_cents: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deposit {
    pub amount_cents: i64,
    pub at: i64,
}

/// Deposits as two parallel lists, amounts and unix-second times, so that
/// they cross the component boundary as flat arrays of integers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deposits {
    pub amount_cents: Vec<i64>,
    pub at: Vec<i64>,
}

impl Deposits {
    pub fn iter(&self) -> impl Iterator<Item = Deposit> + '_ {
        self.amount_cents.iter().zip(&self.at).map(|(a, t)| Deposit { amount_cents: *a, at: *t })
    }
    pub fn push(&mut self, d: Deposit) {
        self.amount_cents.push(d.amount_cents);
        self.at.push(d.at);
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

/// What the store summed of one window's deposits: those dated after
/// `now` less the window's length, however recent (as [`inside`] counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowTotal {
    pub window: LimitWindow,
    pub spent_cents: i64,
    pub oldest_at: Option<i64>,
    pub newest_at: Option<i64>,
}

/// The usage of `window` from the store's totals (none summed: nothing spent).
fn usage_from_totals(window: LimitWindow, totals: &[WindowTotal]) -> WindowUsage {
    match totals.iter().find(|t| t.window == window) {
        Some(t) => WindowUsage { spent_cents: t.spent_cents, next_reset_at: t.oldest_at.map(|o| o.saturating_add(window_seconds(window))) },
        None => WindowUsage { spent_cents: 0, next_reset_at: None },
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowUsage {
    pub spent_cents: i64,
    pub next_reset_at: Option<i64>,
}

/// Whether a deposit counts in the window `(now - length, now]` (a deposit
/// dated after `now` counts too: it cannot have rolled off yet).
fn inside(now: i64, window: LimitWindow, deposit: &Deposit) -> bool {
    deposit.at > now.saturating_sub(window_seconds(window))
}

/// What a rolling window ending at `now` holds, and when its oldest deposit rolls off.
pub fn window_usage_at(now: i64, window: LimitWindow, deposits: &[Deposit]) -> WindowUsage {
    let mut spent = 0i64;
    let mut oldest: Option<i64> = None;
    for d in deposits.iter().filter(|d| inside(now, window, d)) {
        spent = spent.saturating_add(d.amount_cents);
        oldest = Some(oldest.map_or(d.at, |o| o.min(d.at)));
    }
    WindowUsage { spent_cents: spent, next_reset_at: oldest.map(|o| o.saturating_add(window_seconds(window))) }
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

/// The outcome of the rolling-window check alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowCheck {
    Allowed { would_remain_cents: Option<i64> },
    Rejected(DepositBreach),
}

/// Checks a proposed deposit against every limit in force. A window is the
/// half-open interval `(now - length, now]`: a deposit made exactly one
/// window length ago no longer counts. Partial deposits are never allowed.
/// When several limits are breached, the one that allows the least now is
/// reported (ties: the one that stays closed longest, then the shorter window).
pub fn check_deposit(now: i64, limits: &[DepositLimit], deposits: &[Deposit], amount_cents: i64) -> Result<WindowCheck, RuleError> {
    let amount = positive_amount(amount_cents)?;
    for l in limits {
        non_negative_amount(l.amount_cents)?;
    }
    for d in deposits {
        non_negative_amount(d.amount_cents)?;
    }
    let mut worst: Option<DepositBreach> = None;
    let mut would_remain: Option<i64> = None;
    for limit in limits {
        let length = window_seconds(limit.window);
        let spent = saturating_sum(deposits.iter().filter(|d| inside(now, limit.window, d)).map(|d| d.amount_cents));
        let headroom = limit.amount_cents.saturating_sub(spent);
        if amount <= headroom {
            let left = headroom - amount;
            would_remain = Some(would_remain.map_or(left, |w| w.min(left)));
            continue;
        }
        let mut in_window: Vec<Deposit> = deposits.iter().copied().filter(|d| inside(now, limit.window, d)).collect();
        in_window.sort_by_key(|d| d.at);
        let next_reset_at = if amount > limit.amount_cents {
            in_window.last().map_or(now, |d| d.at.saturating_add(length))
        } else {
            let must_roll_off = spent.saturating_add(amount).saturating_sub(limit.amount_cents);
            let mut rolled = 0i64;
            let mut at = now;
            for d in &in_window {
                rolled = rolled.saturating_add(d.amount_cents);
                at = d.at.saturating_add(length);
                if rolled >= must_roll_off {
                    break;
                }
            }
            at
        };
        let breach = DepositBreach {
            window: limit.window,
            limit_cents: limit.amount_cents,
            already_spent_cents: spent,
            max_allowed_now_cents: headroom.max(0),
            next_reset_at,
        };
        let replace = match &worst {
            None => true,
            Some(w) => {
                (breach.max_allowed_now_cents, core::cmp::Reverse(breach.next_reset_at), breach.window)
                    < (w.max_allowed_now_cents, core::cmp::Reverse(w.next_reset_at), w.window)
            }
        };
        if replace {
            worst = Some(breach);
        }
    }
    Ok(match worst {
        Some(breach) => WindowCheck::Rejected(breach),
        None => WindowCheck::Allowed { would_remain_cents: would_remain },
    })
}

/// A limit row as stored, with whether it is kept in the currency of the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredLimit {
    pub window: LimitWindow,
    pub amount_cents: i64,
    pub same_currency: bool,
    pub status: LimitStatus,
    pub effective_from: i64,
}

/// For one window: the index of the limit in force at `now` and of a pending increase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct WindowSlot {
    in_force: Option<usize>,
    pending: Option<usize>,
}

/// A limit is in force from its `effective_from` until a later one replaces
/// it; a pending row whose time has come is in force even before the
/// scheduler marks it active. Rows are given oldest first.
fn slot_of(now: i64, window: LimitWindow, limits: &[StoredLimit]) -> WindowSlot {
    let mut slot = WindowSlot::default();
    let mut in_force_from = i64::MIN;
    for (i, l) in limits.iter().enumerate().filter(|(_, l)| l.window == window && l.status != LimitStatus::Cancelled) {
        if l.effective_from <= now {
            if l.effective_from >= in_force_from {
                slot.in_force = Some(i);
                in_force_from = l.effective_from;
            }
        } else if l.status == LimitStatus::Pending {
            slot.pending = Some(i);
        }
    }
    slot
}

fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Which windows have a limit in force.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowSet {
    pub daily: bool,
    pub weekly: bool,
    pub monthly: bool,
}

impl WindowSet {
    fn insert(&mut self, w: LimitWindow) {
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

/// The deposit gate: a sanctions hold first, then an active self-exclusion,
/// then the rolling-window limits in force.
pub fn decide_deposit(facts: &DepositFacts) -> Result<DepositDecision, RuleError> {
    positive_amount(facts.amount_cents)?;
    if facts.sanctions.holds_transactions() {
        return Ok(DepositDecision::Held);
    }
    if exclusion_status_of(facts.now, &facts.exclusions).most_restrictive.is_some() {
        return Ok(DepositDecision::Excluded);
    }
    // a lock until due diligence holds withdrawals (the spec: deposits are not
    // gated by KYC); a profile whose regulator requires more refuses deposits too
    if let Some(tier) = facts.aml.cdd_tier.filter(|t| facts.verified < *t && crate::jurisdictions::cdd_lock_refuses_deposits(&facts.jurisdiction)) {
        return Ok(DepositDecision::VerificationRequired(tier));
    }
    let mut limits: Vec<DepositLimit> = Vec::with_capacity(3);
    let mut active = WindowSet::default();
    for window in LimitWindow::ALL {
        let Some(i) = slot_of(facts.now, *window, &facts.limits).in_force else { continue };
        let Some(limit) = facts.limits.get(i) else { continue };
        if !limit.same_currency {
            return Ok(DepositDecision::CurrencyMismatch(*window));
        }
        limits.push(DepositLimit { window: *window, amount_cents: limit.amount_cents });
        active.insert(*window);
    }
    let Some(deposits) = &facts.deposits else {
        // From the totals: the spend of each window decides; a breach's
        // reset time needs the single deposits.
        let mut would_remain: Option<i64> = None;
        for limit in &limits {
            non_negative_amount(limit.amount_cents)?;
            let spent = usage_from_totals(limit.window, &facts.totals).spent_cents;
            let headroom = limit.amount_cents.saturating_sub(spent);
            if facts.amount_cents > headroom {
                return Ok(DepositDecision::NeedsDeposits);
            }
            let left = headroom - facts.amount_cents;
            would_remain = Some(would_remain.map_or(left, |w| w.min(left)));
        }
        return Ok(DepositDecision::Allowed(DepositAllowed { would_remain_cents: would_remain, active }));
    };
    let deposits: Vec<Deposit> = deposits.iter().collect();
    Ok(match check_deposit(facts.now, &limits, &deposits, facts.amount_cents)? {
        WindowCheck::Allowed { would_remain_cents } => DepositDecision::Allowed(DepositAllowed { would_remain_cents, active }),
        WindowCheck::Rejected(b) => DepositDecision::Breach(b),
    })
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

/// A limit change: first sets and decreases are instant (a decrease also
/// cancels a pending increase), increases wait out their cool-off from the
/// later of the request time and now, so a backdated request cannot skip it.
pub fn decide_limit_change(facts: &LimitChangeFacts) -> Result<LimitChangeDecision, RuleError> {
    let amount = positive_amount(facts.amount_cents)?;
    if amount < MIN_LIMIT_CENTS {
        return Ok(LimitChangeDecision::BelowMinimum(MIN_LIMIT_CENTS));
    }
    let slot = slot_of(facts.now, facts.window, &facts.limits);
    let current = slot.in_force.and_then(|i| facts.limits.get(i).map(|l| (i, l)));
    let pending = slot.pending.and_then(|i| facts.limits.get(i).map(|l| (i, l)));
    if current.is_some_and(|(_, c)| !c.same_currency) {
        return Ok(LimitChangeDecision::CurrencyMismatch);
    }
    let cooloff = limit_cooloff(&facts.jurisdiction, current.map(|(_, c)| c.amount_cents), amount)?;
    if let Some((i, p)) = pending {
        if p.amount_cents == amount {
            return Ok(LimitChangeDecision::ReplayPending(index(i)));
        }
        if cooloff.is_increase || current.is_none() {
            return Ok(LimitChangeDecision::PendingChangeExists);
        }
    }
    if let Some((i, c)) = current {
        if c.amount_cents == amount && pending.is_none() {
            return Ok(LimitChangeDecision::Unchanged(index(i)));
        }
    }
    let effective_from = facts.requested_at.max(facts.now).saturating_add(cooloff.cooloff_seconds);
    let event = match current {
        None => Some(EventKind::LimitCreated),
        Some((_, c)) if amount < c.amount_cents => Some(EventKind::LimitDecreased),
        Some(_) => None,
    };
    Ok(LimitChangeDecision::Apply(LimitChange {
        current: current.map(|(i, _)| index(i)),
        is_increase: cooloff.is_increase,
        cooloff_seconds: cooloff.cooloff_seconds,
        effective_from,
        status: if cooloff.cooloff_seconds > 0 { LimitStatus::Pending } else { LimitStatus::Active },
        event,
        cancel_pending: pending.map(|(i, _)| index(i)),
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// Only an increase still waiting out its cool-off can be cancelled.
pub fn decide_limit_cancel(facts: &LimitCancelFacts) -> LimitCancelDecision {
    match facts.limit.status {
        LimitStatus::Cancelled => LimitCancelDecision::AlreadyCancelled,
        LimitStatus::Pending if facts.limit.effective_from > facts.now => LimitCancelDecision::Cancel,
        _ => LimitCancelDecision::NotPending,
    }
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

/// The limits in force with their spend and reset times.
pub fn describe_limits(facts: &LimitsFacts) -> Vec<LimitView> {
    let deposits: Option<Vec<Deposit>> = facts.deposits.as_ref().map(|d| d.iter().collect());
    LimitWindow::ALL
        .iter()
        .filter_map(|w| {
            let slot = slot_of(facts.now, *w, &facts.limits);
            let i = slot.in_force?;
            let limit = facts.limits.get(i)?;
            let usage = match &deposits {
                Some(deposits) => window_usage_at(facts.now, *w, deposits),
                None => usage_from_totals(*w, &facts.totals),
            };
            Some(LimitView {
                window: *w,
                in_force: index(i),
                pending: slot.pending.map(index),
                spent_cents: usage.spent_cents,
                remaining_cents: limit.amount_cents.saturating_sub(usage.spent_cents).max(0),
                next_reset_at: usage.next_reset_at,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const DAY: i64 = 86_400;

    #[test]
    fn first_set_and_decrease_are_instant() {
        assert_eq!(limit_cooloff("default", None, 5_000), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
        assert_eq!(limit_cooloff("default", Some(5_000), 4_999), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
        assert_eq!(limit_cooloff("default", Some(5_000), 5_000), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
    }

    #[test]
    fn exactly_2x_and_5x_fall_in_the_lower_bracket() {
        assert_eq!(limit_cooloff("default", Some(10_000), 10_001).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff("default", Some(10_000), 20_000).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff("default", Some(10_000), 20_001).unwrap().cooloff_seconds, 172_800);
        assert_eq!(limit_cooloff("default", Some(10_000), 50_000).unwrap().cooloff_seconds, 172_800);
        assert_eq!(limit_cooloff("default", Some(10_000), 50_001).unwrap().cooloff_seconds, 604_800);
        assert!(limit_cooloff("default", Some(10_000), 50_001).unwrap().is_increase);
    }

    #[test]
    fn huge_amounts_do_not_overflow() {
        let max = crate::MAX_AMOUNT_CENTS;
        assert_eq!(limit_cooloff("default", Some(max / 2), max).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff("default", Some(max), max + 1), Err(RuleError::AmountTooLarge));
        assert_eq!(limit_cooloff("default", Some(1), 0), Err(RuleError::NonPositiveAmount));
        assert_eq!(limit_cooloff("default", Some(-1), 10), Err(RuleError::NonPositiveAmount));
    }

    #[test]
    fn no_limits_allows_with_no_headroom_figure() {
        assert_eq!(check_deposit(0, &[], &[], 100), Ok(WindowCheck::Allowed { would_remain_cents: None }));
    }

    #[test]
    fn deposit_exactly_at_the_window_edge_no_longer_counts() {
        let now = 10 * DAY;
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        let edge = [Deposit { amount_cents: 1_000, at: now - DAY }];
        assert_eq!(check_deposit(now, &limits, &edge, 1_000), Ok(WindowCheck::Allowed { would_remain_cents: Some(0) }));
        let inside = [Deposit { amount_cents: 1_000, at: now - DAY + 1 }];
        let d = check_deposit(now, &limits, &inside, 1).unwrap();
        assert_eq!(
            d,
            WindowCheck::Rejected(DepositBreach {
                window: LimitWindow::Daily,
                limit_cents: 1_000,
                already_spent_cents: 1_000,
                max_allowed_now_cents: 0,
                next_reset_at: now + 1,
            })
        );
    }

    #[test]
    fn exactly_reaching_the_limit_is_allowed_and_one_cent_more_is_not() {
        let limits = [DepositLimit { window: LimitWindow::Weekly, amount_cents: 5_000 }];
        let deps = [Deposit { amount_cents: 3_000, at: 100 }];
        assert_eq!(check_deposit(200, &limits, &deps, 2_000), Ok(WindowCheck::Allowed { would_remain_cents: Some(0) }));
        match check_deposit(200, &limits, &deps, 2_001).unwrap() {
            WindowCheck::Rejected(b) => {
                assert_eq!(b.max_allowed_now_cents, 2_000);
                assert_eq!(b.next_reset_at, 100 + 7 * DAY);
            }
            other => panic!("expected rejection, got {other:?}"),
        }
    }

    #[test]
    fn next_reset_is_when_enough_spend_rolls_off() {
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        let deps = [Deposit { amount_cents: 400, at: 10 }, Deposit { amount_cents: 400, at: 20 }, Deposit { amount_cents: 200, at: 30 }];
        match check_deposit(100, &limits, &deps, 700).unwrap() {
            WindowCheck::Rejected(b) => assert_eq!(b.next_reset_at, 20 + DAY),
            other => panic!("expected rejection, got {other:?}"),
        }
    }

    #[test]
    fn most_binding_of_several_limits_is_reported() {
        let limits =
            [DepositLimit { window: LimitWindow::Daily, amount_cents: 10_000 }, DepositLimit { window: LimitWindow::Monthly, amount_cents: 12_000 }];
        let deps = vec![Deposit { amount_cents: 11_000, at: 0 }];
        match check_deposit(2 * DAY, &limits, &deps, 5_000).unwrap() {
            WindowCheck::Rejected(b) => {
                assert_eq!(b.window, LimitWindow::Monthly);
                assert_eq!(b.max_allowed_now_cents, 1_000);
            }
            other => panic!("expected rejection, got {other:?}"),
        }
        assert_eq!(check_deposit(2 * DAY, &limits, &deps, 1_000), Ok(WindowCheck::Allowed { would_remain_cents: Some(0) }));
    }

    #[test]
    fn amount_above_the_limit_resets_when_window_clears() {
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        match check_deposit(50, &limits, &[], 1_001).unwrap() {
            WindowCheck::Rejected(b) => assert_eq!(b.next_reset_at, 50),
            other => panic!("expected rejection, got {other:?}"),
        }
    }

    #[test]
    fn invalid_amounts_are_rejected() {
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        assert_eq!(check_deposit(0, &limits, &[], 0), Err(RuleError::NonPositiveAmount));
        assert_eq!(check_deposit(0, &limits, &[], i64::MAX), Err(RuleError::AmountTooLarge));
        let bad = [Deposit { amount_cents: -1, at: 0 }];
        assert_eq!(check_deposit(0, &limits, &bad, 1), Err(RuleError::NonPositiveAmount));
    }

    #[test]
    fn window_usage_counts_only_inside_and_reports_the_oldest_roll_off() {
        let deps = [Deposit { amount_cents: 5, at: 0 }, Deposit { amount_cents: 7, at: 50 }, Deposit { amount_cents: 11, at: 10 }];
        let u = window_usage_at(DAY, LimitWindow::Daily, &deps);
        assert_eq!(u, WindowUsage { spent_cents: 18, next_reset_at: Some(10 + DAY) });
        assert_eq!(window_usage_at(DAY, LimitWindow::Daily, &[]), WindowUsage { spent_cents: 0, next_reset_at: None });
    }

    #[test]
    fn window_names_round_trip_and_unknown_is_rejected() {
        for w in LimitWindow::ALL.iter().copied() {
            assert_eq!(LimitWindow::parse(w.as_str()), Some(w));
        }
        assert_eq!(LimitWindow::parse("limit_yearly"), None);
    }

    /// The window totals as the store computes them (deposits after the
    /// window's start, however recent).
    fn totals_of(now: i64, deposits: &Deposits) -> Vec<WindowTotal> {
        LimitWindow::ALL
            .iter()
            .map(|w| {
                let inside: Vec<Deposit> = deposits.iter().filter(|d| d.at > now - window_seconds(*w)).collect();
                WindowTotal {
                    window: *w,
                    spent_cents: inside.iter().map(|d| d.amount_cents).sum(),
                    oldest_at: inside.iter().map(|d| d.at).min(),
                    newest_at: inside.iter().map(|d| d.at).max(),
                }
            })
            .collect()
    }

    proptest::proptest! {
        /// Deciding from the store's totals agrees with deciding from every
        /// deposit: the same allowance, or a request for the deposits
        /// exactly when they give a breach; the limits' view is the same.
        #[test]
        fn totals_decide_as_the_deposits_do(
            spends in proptest::collection::vec((1i64..5_000, 0i64..40 * DAY), 0..60),
            caps in proptest::collection::vec(1_000i64..60_000, 3),
            amount in 1i64..20_000,
        ) {
            let now = 100 * DAY;
            let deposits: Deposits = spends.iter().map(|(a, ago)| Deposit { amount_cents: *a, at: now - ago }).collect();
            let limits: Vec<StoredLimit> = LimitWindow::ALL
                .iter()
                .zip(&caps)
                .map(|(w, c)| StoredLimit { window: *w, amount_cents: *c, same_currency: true, status: LimitStatus::Active, effective_from: 0 })
                .collect();
            let facts = |deposits: Option<Deposits>| DepositFacts {
                now,
                sanctions: crate::SanctionsStatus::Clear,
                exclusions: vec![],
                limits: limits.clone(),
                totals: totals_of(now, &spends.iter().map(|(a, ago)| Deposit { amount_cents: *a, at: now - ago }).collect()),
                deposits,
                amount_cents: amount,
                verified: KycTier::Tier0,
                aml: AmlStanding::default(),
                jurisdiction: crate::jurisdictions::DEFAULT_JURISDICTION.into(),
            };
            let from_totals = decide_deposit(&facts(None)).unwrap();
            let from_deposits = decide_deposit(&facts(Some(deposits.clone()))).unwrap();
            match (&from_totals, &from_deposits) {
                (DepositDecision::NeedsDeposits, DepositDecision::Breach(_)) => {}
                (a, b) => proptest::prop_assert_eq!(a, b),
            }
            let view = |deposits: Option<Deposits>| describe_limits(&LimitsFacts { now, limits: limits.clone(), totals: totals_of(now, &deposits.clone().unwrap_or_default()), deposits });
            proptest::prop_assert_eq!(
                describe_limits(&LimitsFacts { now, limits: limits.clone(), totals: totals_of(now, &deposits), deposits: None }),
                view(Some(deposits.clone()))
            );
        }
    }
}
