//! Deposit limits: cool-off brackets and the rolling-window check.

use alloc::vec::Vec;

use crate::{non_negative_amount, positive_amount, saturating_sum, RuleError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LimitWindow {
    Daily,
    Weekly,
    Monthly,
}

impl LimitWindow {
    pub const ALL: [LimitWindow; 3] = [LimitWindow::Daily, LimitWindow::Weekly, LimitWindow::Monthly];

    pub fn as_str(self) -> &'static str {
        match self {
            LimitWindow::Daily => "limit_daily",
            LimitWindow::Weekly => "limit_weekly",
            LimitWindow::Monthly => "limit_monthly",
        }
    }

    pub fn parse(s: &str) -> Option<LimitWindow> {
        LimitWindow::ALL.into_iter().find(|w| w.as_str() == s)
    }
}

pub const COOLOFF_UP_TO_2X: i64 = 86_400;
pub const COOLOFF_UP_TO_5X: i64 = 172_800;
pub const COOLOFF_ABOVE_5X: i64 = 604_800;

/// Length of a rolling window: 24 hours, 7 days or 30 days.
pub fn window_seconds(window: LimitWindow) -> i64 {
    match window {
        LimitWindow::Daily => 86_400,
        LimitWindow::Weekly => 7 * 86_400,
        LimitWindow::Monthly => 30 * 86_400,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cooloff {
    pub is_increase: bool,
    pub cooloff_seconds: i64,
}

/// The cool-off for a limit change. First sets and decreases (and an
/// unchanged amount) are instant; an increase waits 24 hours up to and
/// including 2x, 48 hours up to and including 5x, 7 days above.
pub fn limit_cooloff(current_cents: Option<i64>, requested_cents: i64) -> Result<Cooloff, RuleError> {
    let requested = positive_amount(requested_cents)?;
    let Some(current) = current_cents else {
        return Ok(Cooloff { is_increase: false, cooloff_seconds: 0 });
    };
    let current = non_negative_amount(current)?;
    if requested <= current {
        return Ok(Cooloff { is_increase: false, cooloff_seconds: 0 });
    }
    let (requested, current) = (i128::from(requested), i128::from(current));
    let cooloff_seconds = if requested <= 2 * current {
        COOLOFF_UP_TO_2X
    } else if requested <= 5 * current {
        COOLOFF_UP_TO_5X
    } else {
        COOLOFF_ABOVE_5X
    };
    Ok(Cooloff { is_increase: true, cooloff_seconds })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepositLimit {
    pub window: LimitWindow,
    pub amount_cents: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deposit {
    pub amount_cents: i64,
    pub at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepositBreach {
    pub window: LimitWindow,
    pub limit_cents: i64,
    pub already_spent_cents: i64,
    pub max_allowed_now_cents: i64,
    pub next_reset_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepositDecision {
    Allowed { would_remain_cents: Option<i64> },
    Rejected(DepositBreach),
}

/// Checks a proposed deposit against every limit in force. A window is the
/// half-open interval `(now - length, now]`: a deposit made exactly one
/// window length ago no longer counts. Partial deposits are never allowed.
/// When several limits are breached, the one that allows the least now is
/// reported (ties: the one that stays closed longest, then the shorter window).
pub fn check_deposit(now: i64, limits: &[DepositLimit], deposits: &[Deposit], amount_cents: i64) -> Result<DepositDecision, RuleError> {
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
        Some(breach) => DepositDecision::Rejected(breach),
        None => DepositDecision::Allowed { would_remain_cents: would_remain },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const DAY: i64 = 86_400;

    #[test]
    fn first_set_and_decrease_are_instant() {
        assert_eq!(limit_cooloff(None, 5_000), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
        assert_eq!(limit_cooloff(Some(5_000), 4_999), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
        assert_eq!(limit_cooloff(Some(5_000), 5_000), Ok(Cooloff { is_increase: false, cooloff_seconds: 0 }));
    }

    #[test]
    fn exactly_2x_and_5x_fall_in_the_lower_bracket() {
        assert_eq!(limit_cooloff(Some(10_000), 10_001).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff(Some(10_000), 20_000).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff(Some(10_000), 20_001).unwrap().cooloff_seconds, 172_800);
        assert_eq!(limit_cooloff(Some(10_000), 50_000).unwrap().cooloff_seconds, 172_800);
        assert_eq!(limit_cooloff(Some(10_000), 50_001).unwrap().cooloff_seconds, 604_800);
        assert!(limit_cooloff(Some(10_000), 50_001).unwrap().is_increase);
    }

    #[test]
    fn huge_amounts_do_not_overflow() {
        let max = crate::MAX_AMOUNT_CENTS;
        assert_eq!(limit_cooloff(Some(max / 2), max).unwrap().cooloff_seconds, 86_400);
        assert_eq!(limit_cooloff(Some(max), max + 1), Err(RuleError::AmountTooLarge));
        assert_eq!(limit_cooloff(Some(1), 0), Err(RuleError::NonPositiveAmount));
        assert_eq!(limit_cooloff(Some(-1), 10), Err(RuleError::NonPositiveAmount));
    }

    #[test]
    fn no_limits_allows_with_no_headroom_figure() {
        assert_eq!(check_deposit(0, &[], &[], 100), Ok(DepositDecision::Allowed { would_remain_cents: None }));
    }

    #[test]
    fn deposit_exactly_at_the_window_edge_no_longer_counts() {
        let now = 10 * DAY;
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        let edge = [Deposit { amount_cents: 1_000, at: now - DAY }];
        assert_eq!(check_deposit(now, &limits, &edge, 1_000), Ok(DepositDecision::Allowed { would_remain_cents: Some(0) }));
        let inside = [Deposit { amount_cents: 1_000, at: now - DAY + 1 }];
        let d = check_deposit(now, &limits, &inside, 1).unwrap();
        assert_eq!(
            d,
            DepositDecision::Rejected(DepositBreach {
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
        assert_eq!(check_deposit(200, &limits, &deps, 2_000), Ok(DepositDecision::Allowed { would_remain_cents: Some(0) }));
        match check_deposit(200, &limits, &deps, 2_001).unwrap() {
            DepositDecision::Rejected(b) => {
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
            DepositDecision::Rejected(b) => assert_eq!(b.next_reset_at, 20 + DAY),
            other => panic!("expected rejection, got {other:?}"),
        }
    }

    #[test]
    fn most_binding_of_several_limits_is_reported() {
        let limits =
            [DepositLimit { window: LimitWindow::Daily, amount_cents: 10_000 }, DepositLimit { window: LimitWindow::Monthly, amount_cents: 12_000 }];
        let deps = vec![Deposit { amount_cents: 11_000, at: 0 }];
        match check_deposit(2 * DAY, &limits, &deps, 5_000).unwrap() {
            DepositDecision::Rejected(b) => {
                assert_eq!(b.window, LimitWindow::Monthly);
                assert_eq!(b.max_allowed_now_cents, 1_000);
            }
            other => panic!("expected rejection, got {other:?}"),
        }
        assert_eq!(check_deposit(2 * DAY, &limits, &deps, 1_000), Ok(DepositDecision::Allowed { would_remain_cents: Some(0) }));
    }

    #[test]
    fn amount_above_the_limit_resets_when_window_clears() {
        let limits = [DepositLimit { window: LimitWindow::Daily, amount_cents: 1_000 }];
        match check_deposit(50, &limits, &[], 1_001).unwrap() {
            DepositDecision::Rejected(b) => assert_eq!(b.next_reset_at, 50),
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
        for w in LimitWindow::ALL {
            assert_eq!(LimitWindow::parse(w.as_str()), Some(w));
        }
        assert_eq!(LimitWindow::parse("limit_yearly"), None);
    }
}
