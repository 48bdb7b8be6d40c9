//! Deposit limits: cool-off brackets, the rolling-window check, the deposit
//! gate, limit changes and their cancellation.

use crate::exclusions::exclusion_status_of;
#[allow(unused_imports)]
use crate::traits::*;
use crate::types::EventKind;
#[allow(unused_imports)]
use crate::*;
use crate::{non_negative_amount, positive_amount, RuleError, DAY};
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::limits::*;
use serde::{Deserialize, Serialize};

pub use crate::jurisdictions::{COOLOFF_ABOVE_5X, COOLOFF_UP_TO_2X, COOLOFF_UP_TO_5X};

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

/// `amount_cents` of `currency` as it counts against a limit kept in
/// `into`: at par in the limit's own currency (and where either currency is
/// unknown: decisions logged before currencies were facts summed at par),
/// otherwise at the facts' reference rate from `currency` into `into`,
/// converted as AML converts ([`crate::aml::convert`]). No usable rate is
/// [`RuleError::NoReferenceRate`], never a sum at par; nothing needs none.
/// A sum may pass [`crate::MAX_AMOUNT_CENTS`] (the store cuts each at
/// [`SPEND_CAP`]); converted past it, it counts as the cap: past every limit.
pub fn in_limit_currency(amount_cents: i64, currency: &str, into: &str, rates: &[AmlRate]) -> Result<i64, RuleError> {
    let amount = spend(amount_cents)?;
    if amount == 0 || currency.is_empty() || into.is_empty() || currency == into {
        return Ok(amount);
    }
    let rate = rates.iter().find(|r| r.currency == currency && r.per_unit_of == into && crate::aml::convert(0, r).is_some());
    let rate = rate.ok_or(RuleError::NoReferenceRate)?;
    Ok(crate::aml::convert(amount.min(crate::MAX_AMOUNT_CENTS), rate).filter(|_| amount <= crate::MAX_AMOUNT_CENTS).unwrap_or(SPEND_CAP))
}

/// The largest spend the rules count or report: what every store keeps
/// exactly (2^53 - 1), past every limit ([`crate::MAX_AMOUNT_CENTS`] is less).
pub const SPEND_CAP: i64 = (1 << 53) - 1;
const _: () = assert!(crate::MAX_AMOUNT_CENTS < SPEND_CAP);

/// A summed spend: never negative, however large.
fn spend(cents: i64) -> Result<i64, RuleError> {
    if cents < 0 {
        return Err(RuleError::NonPositiveAmount);
    }
    Ok(cents)
}

/// Sums per currency, then each sum converted into `into` and added up:
/// the store sums each currency of a window, and the deposits, when given,
/// are summed the same way, so that both give the same spend.
fn spent_in(sums: &[(&str, i64)], into: &str, rates: &[AmlRate]) -> Result<i64, RuleError> {
    let mut spent = 0i64;
    for (currency, sum) in sums {
        spent = spent.saturating_add(in_limit_currency(*sum, currency, into, rates)?);
    }
    Ok(spent.min(SPEND_CAP))
}

/// Adds `amount` to the sum of `currency` (a short list: a few currencies a window).
fn add_to<'a>(sums: &mut Vec<(&'a str, i64)>, currency: &'a str, amount: i64) {
    match sums.iter_mut().find(|(c, _)| *c == currency) {
        Some((_, sum)) => *sum = sum.saturating_add(amount),
        None => sums.push((currency, amount)),
    }
}

/// The usage of `window` from the store's totals, each currency's in the
/// limit's currency `into` (none summed: nothing spent).
fn usage_from_totals(window: LimitWindow, into: &str, totals: &[WindowTotal], rates: &[AmlRate]) -> Result<WindowUsage, RuleError> {
    let mut sums: Vec<(&str, i64)> = Vec::new();
    let mut oldest: Option<i64> = None;
    for t in totals.iter().filter(|t| t.window == window) {
        add_to(&mut sums, &t.currency, spend(t.spent_cents)?);
        if let Some(o) = t.oldest_at {
            oldest = Some(oldest.map_or(o, |x| x.min(o)));
        }
    }
    Ok(WindowUsage { spent_cents: spent_in(&sums, into, rates)?, next_reset_at: oldest.map(|o| o.saturating_add(window_seconds(window))) })
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

/// [`window_usage_at`] of deposits in their currencies, counted in `into`
/// as [`in_limit_currency`] says (each currency's sum converted once).
pub fn window_usage_in(now: i64, window: LimitWindow, deposits: &[(Deposit, &str)], into: &str, rates: &[AmlRate]) -> Result<WindowUsage, RuleError> {
    let mut sums: Vec<(&str, i64)> = Vec::new();
    let mut oldest: Option<i64> = None;
    for (d, currency) in deposits.iter().filter(|(d, _)| inside(now, window, d)) {
        add_to(&mut sums, currency, non_negative_amount(d.amount_cents)?);
        oldest = Some(oldest.map_or(d.at, |o| o.min(d.at)));
    }
    Ok(WindowUsage { spent_cents: spent_in(&sums, into, rates)?, next_reset_at: oldest.map(|o| o.saturating_add(window_seconds(window))) })
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
/// Every deposit is in the limits' currency; [`check_deposit_in`] converts.
pub fn check_deposit(now: i64, limits: &[DepositLimit], deposits: &[Deposit], amount_cents: i64) -> Result<WindowCheck, RuleError> {
    let limits: Vec<(DepositLimit, &str)> = limits.iter().map(|l| (*l, "")).collect();
    let deposits: Vec<(Deposit, &str)> = deposits.iter().map(|d| (*d, "")).collect();
    check_deposit_in(now, &limits, &deposits, &[], amount_cents)
}

/// [`check_deposit`] with each limit's currency and each deposit's: a
/// deposit counts in a limit's currency as [`in_limit_currency`] says, each
/// currency's sum in the window converted once, at the facts' `rates`.
pub fn check_deposit_in(
    now: i64,
    limits: &[(DepositLimit, &str)],
    deposits: &[(Deposit, &str)],
    rates: &[AmlRate],
    amount_cents: i64,
) -> Result<WindowCheck, RuleError> {
    let amount = positive_amount(amount_cents)?;
    for (l, _) in limits {
        non_negative_amount(l.amount_cents)?;
    }
    for (d, _) in deposits {
        non_negative_amount(d.amount_cents)?;
    }
    let mut worst: Option<DepositBreach> = None;
    let mut would_remain: Option<i64> = None;
    for (limit, into) in limits {
        let length = window_seconds(limit.window);
        let mut in_window: Vec<(Deposit, &str)> = deposits.iter().copied().filter(|(d, _)| inside(now, limit.window, d)).collect();
        in_window.sort_by_key(|(d, _)| d.at);
        let mut sums: Vec<(&str, i64)> = Vec::new();
        for (d, currency) in &in_window {
            add_to(&mut sums, currency, d.amount_cents);
        }
        let spent = spent_in(&sums, into, rates)?;
        let headroom = limit.amount_cents.saturating_sub(spent);
        if amount <= headroom {
            let left = headroom - amount;
            would_remain = Some(would_remain.map_or(left, |w| w.min(left)));
            continue;
        }
        let next_reset_at = if amount > limit.amount_cents {
            in_window.last().map_or(now, |(d, _)| d.at.saturating_add(length))
        } else {
            // the oldest deposits roll off first, until what stays (each
            // currency's sum converted) leaves room for the amount
            let mut at = now;
            for (d, currency) in &in_window {
                add_to(&mut sums, currency, d.amount_cents.saturating_neg());
                at = d.at.saturating_add(length);
                if spent_in(&sums, into, rates)?.saturating_add(amount) <= limit.amount_cents {
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

/// The deposit gate: a sanctions hold first, then an active self-exclusion,
/// then the rolling-window limits in force.
pub fn decide_deposit(facts: &DepositFacts) -> Result<DepositDecision, RuleError> {
    positive_amount(facts.amount_cents)?;
    if facts.sanctions.holds_transactions() {
        return Ok(DepositDecision::Held);
    }
    if exclusion_status_of(facts.now, &facts.exclusions).most_restrictive.is_some() || !facts.registers.is_empty() {
        return Ok(DepositDecision::Excluded);
    }
    // a lock until due diligence holds withdrawals (the spec: deposits are not
    // gated by KYC); a profile whose regulator requires more refuses deposits too
    if let Some(tier) = facts.aml.cdd_tier.filter(|t| facts.verified < *t && crate::jurisdictions::cdd_lock_refuses_deposits(&facts.jurisdiction)) {
        return Ok(DepositDecision::VerificationRequired(tier));
    }
    let mut limits: Vec<(DepositLimit, &str)> = Vec::with_capacity(3);
    let mut active = WindowSet::default();
    for window in LimitWindow::ALL {
        let Some(i) = slot_of(facts.now, *window, &facts.limits).in_force else { continue };
        let Some(limit) = facts.limits.get(i) else { continue };
        if !limit.same_currency {
            return Ok(DepositDecision::CurrencyMismatch(*window));
        }
        limits.push((DepositLimit { window: *window, amount_cents: limit.amount_cents }, &limit.currency));
        active.insert(*window);
    }
    let Some(deposits) = &facts.deposits else {
        // From the totals: the spend of each window, each currency's
        // converted into the limit's, decides; a breach's reset time needs
        // the single deposits.
        let mut would_remain: Option<i64> = None;
        for (limit, into) in &limits {
            non_negative_amount(limit.amount_cents)?;
            let spent = usage_from_totals(limit.window, into, &facts.totals, &facts.rates)?.spent_cents;
            let headroom = limit.amount_cents.saturating_sub(spent);
            if facts.amount_cents > headroom {
                return Ok(DepositDecision::NeedsDeposits);
            }
            let left = headroom - facts.amount_cents;
            would_remain = Some(would_remain.map_or(left, |w| w.min(left)));
        }
        return Ok(DepositDecision::Allowed(DepositAllowed { would_remain_cents: would_remain, active }));
    };
    let deposits: Vec<(Deposit, &str)> = deposits.iter_in_currencies().collect();
    Ok(match check_deposit_in(facts.now, &limits, &deposits, &facts.rates, facts.amount_cents)? {
        WindowCheck::Allowed { would_remain_cents } => DepositDecision::Allowed(DepositAllowed { would_remain_cents, active }),
        WindowCheck::Rejected(b) => DepositDecision::Breach(b),
    })
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

/// Only an increase still waiting out its cool-off can be cancelled.
pub fn decide_limit_cancel(facts: &LimitCancelFacts) -> LimitCancelDecision {
    match facts.limit.status {
        LimitStatus::Cancelled => LimitCancelDecision::AlreadyCancelled,
        LimitStatus::Pending if facts.limit.effective_from > facts.now => LimitCancelDecision::Cancel,
        _ => LimitCancelDecision::NotPending,
    }
}

/// The limits in force with their spend (each currency's in the limit's,
/// as the deposit gate counts it) and reset times.
pub fn describe_limits(facts: &LimitsFacts) -> Result<Vec<LimitView>, RuleError> {
    let deposits: Option<Vec<(Deposit, &str)>> = facts.deposits.as_ref().map(|d| d.iter_in_currencies().collect());
    LimitWindow::ALL
        .iter()
        .filter_map(|w| {
            let slot = slot_of(facts.now, *w, &facts.limits);
            let i = slot.in_force?;
            let limit = facts.limits.get(i)?;
            let usage = match &deposits {
                Some(deposits) => window_usage_in(facts.now, *w, deposits, &limit.currency, &facts.rates),
                None => usage_from_totals(*w, &limit.currency, &facts.totals, &facts.rates),
            };
            let usage = match usage {
                Ok(u) => u,
                Err(e) => return Some(Err(e)),
            };
            Some(Ok(LimitView {
                window: *w,
                in_force: index(i),
                pending: slot.pending.map(index),
                spent_cents: usage.spent_cents,
                remaining_cents: limit.amount_cents.saturating_sub(usage.spent_cents).max(0),
                next_reset_at: usage.next_reset_at,
            }))
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

    /// The window totals as the store computes them: deposits after the
    /// window's start, however recent, one total per currency.
    fn totals_of(now: i64, deposits: &Deposits) -> Vec<WindowTotal> {
        let mut totals = Vec::new();
        for w in LimitWindow::ALL {
            let mut currencies: Vec<&str> = deposits.iter_in_currencies().map(|(_, c)| c).collect();
            currencies.sort_unstable();
            currencies.dedup();
            for currency in currencies {
                let inside: Vec<Deposit> =
                    deposits.iter_in_currencies().filter(|(d, c)| d.at > now - window_seconds(*w) && *c == currency).map(|(d, _)| d).collect();
                if inside.is_empty() {
                    continue;
                }
                totals.push(WindowTotal {
                    window: *w,
                    spent_cents: inside.iter().map(|d| d.amount_cents).sum(),
                    oldest_at: inside.iter().map(|d| d.at).min(),
                    newest_at: inside.iter().map(|d| d.at).max(),
                    currency: currency.into(),
                });
            }
        }
        totals
    }

    fn rate(currency: &str, per_unit_of: &str, rate_units: i64, rate_scale: u32) -> AmlRate {
        AmlRate {
            version: "rates-v1".into(),
            date: "2027-01-15".into(),
            currency: currency.into(),
            currency_exponent: if currency == "JPY" { 0 } else { 2 },
            per_unit_of: per_unit_of.into(),
            per_unit_exponent: 2,
            rate_units,
            rate_scale,
        }
    }

    fn usd_limit(window: LimitWindow, amount_cents: i64) -> StoredLimit {
        StoredLimit { window, amount_cents, same_currency: true, status: LimitStatus::Active, effective_from: 0, currency: "USD".into() }
    }

    fn deposit_facts(now: i64, limits: Vec<StoredLimit>, deposits: &Deposits, rates: Vec<AmlRate>, amount_cents: i64) -> DepositFacts {
        DepositFacts {
            now,
            sanctions: crate::SanctionsStatus::Clear,
            exclusions: vec![],
            limits,
            totals: totals_of(now, deposits),
            deposits: None,
            amount_cents,
            verified: KycTier::Tier0,
            aml: AmlStanding::default(),
            jurisdiction: crate::jurisdictions::DEFAULT_JURISDICTION.into(),
            rates,
            registers: vec![],
        }
    }

    #[test]
    fn a_deposit_in_another_currency_counts_at_the_reference_rate() {
        let now = 10 * DAY;
        let mut deposits = Deposits::default();
        deposits.push_in(Deposit { amount_cents: 8_000, at: now - 60 }, "EUR");
        let limits = vec![usd_limit(LimitWindow::Daily, 10_000)];
        let rates = vec![rate("EUR", "USD", 12_000, 4)];
        // EUR 80.00 at 1.20 is USD 96.00: USD 4.00 is left, not 20.00
        let allowed = decide_deposit(&deposit_facts(now, limits.clone(), &deposits, rates.clone(), 400)).unwrap();
        assert_eq!(
            allowed,
            DepositDecision::Allowed(DepositAllowed { would_remain_cents: Some(0), active: WindowSet { daily: true, ..WindowSet::default() } })
        );
        assert_eq!(decide_deposit(&deposit_facts(now, limits.clone(), &deposits, rates.clone(), 401)).unwrap(), DepositDecision::NeedsDeposits);
        let mut with_deposits = deposit_facts(now, limits.clone(), &deposits, rates.clone(), 401);
        with_deposits.deposits = Some(deposits.clone());
        assert_eq!(
            decide_deposit(&with_deposits).unwrap(),
            DepositDecision::Breach(DepositBreach {
                window: LimitWindow::Daily,
                limit_cents: 10_000,
                already_spent_cents: 9_600,
                max_allowed_now_cents: 400,
                next_reset_at: now - 60 + DAY,
            })
        );
        let view = describe_limits(&LimitsFacts { now, limits, totals: totals_of(now, &deposits), deposits: None, rates }).unwrap();
        assert_eq!((view[0].spent_cents, view[0].remaining_cents), (9_600, 400));
    }

    #[test]
    fn no_rate_where_one_is_needed_refuses_and_never_sums_at_par() {
        let now = 10 * DAY;
        let mut deposits = Deposits::default();
        deposits.push_in(Deposit { amount_cents: 8_000, at: now - 60 }, "EUR");
        deposits.push_in(Deposit { amount_cents: 1_000, at: now - 30 }, "USD");
        let limits = vec![usd_limit(LimitWindow::Daily, 10_000)];
        // no rate, or a rate of another pair or direction
        for rates in [vec![], vec![rate("GBP", "USD", 12_700, 4)], vec![rate("USD", "EUR", 9_000, 4)]] {
            let mut facts = deposit_facts(now, limits.clone(), &deposits, rates.clone(), 100);
            assert_eq!(decide_deposit(&facts), Err(RuleError::NoReferenceRate));
            facts.deposits = Some(deposits.clone());
            assert_eq!(decide_deposit(&facts), Err(RuleError::NoReferenceRate));
            let view = LimitsFacts { now, limits: limits.clone(), totals: totals_of(now, &deposits), deposits: None, rates };
            assert_eq!(describe_limits(&view), Err(RuleError::NoReferenceRate));
        }
        // deposits only in the limit's currency need no rate
        let mut same = Deposits::default();
        same.push_in(Deposit { amount_cents: 1_000, at: now - 30 }, "USD");
        assert!(matches!(decide_deposit(&deposit_facts(now, limits, &same, vec![], 100)), Ok(DepositDecision::Allowed(_))));
    }

    #[test]
    fn a_check_in_another_currency_than_the_limits_is_still_a_mismatch() {
        let mut limits = vec![usd_limit(LimitWindow::Weekly, 10_000)];
        limits[0].same_currency = false;
        let facts = deposit_facts(DAY, limits, &Deposits::default(), vec![], 100);
        assert_eq!(decide_deposit(&facts), Ok(DepositDecision::CurrencyMismatch(LimitWindow::Weekly)));
    }

    #[test]
    fn the_reset_is_when_enough_converted_spend_rolls_off() {
        let now = 10 * DAY;
        let mut deposits = Deposits::default();
        deposits.push_in(Deposit { amount_cents: 5_000, at: now - 300 }, "EUR"); // USD 60.00
        deposits.push_in(Deposit { amount_cents: 3_000, at: now - 200 }, "USD");
        let mut facts = deposit_facts(now, vec![usd_limit(LimitWindow::Daily, 10_000)], &deposits, vec![rate("EUR", "USD", 12_000, 4)], 2_000);
        facts.deposits = Some(deposits);
        match decide_deposit(&facts).unwrap() {
            DepositDecision::Breach(b) => {
                assert_eq!((b.already_spent_cents, b.max_allowed_now_cents), (9_000, 1_000));
                // the EUR deposit rolling off leaves USD 30.00: room for 20.00
                assert_eq!(b.next_reset_at, now - 300 + DAY);
            }
            other => panic!("expected a breach, got {other:?}"),
        }
    }

    #[test]
    fn sums_past_the_largest_amount_convert_to_the_cap_never_an_error() {
        let now = 10 * DAY;
        let limits = vec![usd_limit(LimitWindow::Monthly, crate::MAX_AMOUNT_CENTS)];
        let huge = |currency: &str| WindowTotal {
            window: LimitWindow::Monthly,
            spent_cents: SPEND_CAP,
            oldest_at: Some(now - 60),
            newest_at: Some(now - 60),
            currency: currency.into(),
        };
        let mut facts = deposit_facts(now, limits.clone(), &Deposits::default(), vec![rate("EUR", "USD", 12_000, 4)], 100);
        facts.totals = vec![huge("EUR"), huge("USD")];
        assert_eq!(decide_deposit(&facts), Ok(DepositDecision::NeedsDeposits));
        let view = describe_limits(&LimitsFacts { now, limits, totals: facts.totals.clone(), deposits: None, rates: facts.rates.clone() }).unwrap();
        assert_eq!((view[0].spent_cents, view[0].remaining_cents), (SPEND_CAP, 0));
        // the twin: a small sum converts exactly
        assert_eq!(in_limit_currency(1_000, "EUR", "USD", &facts.rates), Ok(1_200));
    }

    #[test]
    fn facts_logged_before_currencies_still_decide_at_par() {
        let old = r#"{"now":100000,"sanctions":"clear","exclusions":[],"limits":[{"window":"limit_daily","amount_cents":10000,"same_currency":true,"status":"active","effective_from":0}],
            "totals":[{"window":"limit_daily","spent_cents":8000,"oldest_at":99000,"newest_at":99000}],"deposits":null,"amount_cents":2000}"#;
        let facts: DepositFacts = serde_json::from_str(old).unwrap();
        assert!(facts.rates.is_empty() && facts.limits[0].currency.is_empty() && facts.totals[0].currency.is_empty());
        assert!(matches!(decide_deposit(&facts), Ok(DepositDecision::Allowed(DepositAllowed { would_remain_cents: Some(0), .. }))));
        let deposits: Deposits = serde_json::from_str(r#"{"amount_cents":[8000],"at":[99000]}"#).unwrap();
        assert_eq!(deposits.iter_in_currencies().next().map(|(_, c)| c), Some(""));
    }

    proptest::proptest! {
        /// Deciding from the store's totals agrees with deciding from every
        /// deposit, whatever the currencies deposited: the same allowance,
        /// or a request for the deposits exactly when they give a breach;
        /// the limits' view is the same.
        #[test]
        fn totals_decide_as_the_deposits_do(
            spends in proptest::collection::vec((1i64..5_000, 0i64..40 * DAY, 0usize..3), 0..60),
            caps in proptest::collection::vec(1_000i64..60_000, 3),
            amount in 1i64..20_000,
        ) {
            let now = 100 * DAY;
            let mut deposits = Deposits::default();
            for (a, ago, c) in &spends {
                deposits.push_in(Deposit { amount_cents: *a, at: now - ago }, ["USD", "EUR", "JPY"][*c]);
            }
            let limits: Vec<StoredLimit> = LimitWindow::ALL.iter().zip(&caps).map(|(w, c)| usd_limit(*w, *c)).collect();
            let rates = vec![rate("EUR", "USD", 10_837, 4), rate("JPY", "USD", 64, 4)];
            let facts = |given: Option<Deposits>| DepositFacts { deposits: given, ..deposit_facts(now, limits.clone(), &deposits, rates.clone(), amount) };
            let from_totals = decide_deposit(&facts(None)).unwrap();
            let from_deposits = decide_deposit(&facts(Some(deposits.clone()))).unwrap();
            match (&from_totals, &from_deposits) {
                (DepositDecision::NeedsDeposits, DepositDecision::Breach(_)) => {}
                (a, b) => proptest::prop_assert_eq!(a, b),
            }
            let view = |given: Option<Deposits>| describe_limits(&LimitsFacts { now, limits: limits.clone(), totals: totals_of(now, &deposits), deposits: given, rates: rates.clone() });
            proptest::prop_assert_eq!(view(None), view(Some(deposits.clone())));
        }
    }
}
