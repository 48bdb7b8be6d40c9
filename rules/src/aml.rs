//! Anti-money-laundering monitoring: one decision per reported transaction
//! event, over the user's buckets (sums per hour and per gaming day, by
//! currency and payment method), never over raw events. Each typology is a
//! rule with an id, a version, a reason code and its evidence; the outcome is
//! the strongest band any rule reached. Parameters come from the tenant's
//! jurisdiction profile; sources are in `docs/decisions.md` ("AML monitoring").

use crate::jurisdictions::aml_parameters;
use crate::kyc::KycTier;

#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
use crate::{positive_amount, RuleError, DAY, HOUR};
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::aml::*;

/// The rules about a [`Typology`].
pub trait TypologyRules {
    fn version(self) -> u32;
    fn band(self) -> (AmlOutcome, &'static [AmlAction]);
}

impl TypologyRules for Typology {
    /// The rule's version: raised whenever its logic or evidence changes.
    fn version(self) -> u32 {
        1
    }

    /// The band this rule puts a decision in, and what follows.
    fn band(self) -> (AmlOutcome, &'static [AmlAction]) {
        match self {
            Typology::CtrThreshold => (AmlOutcome::Review, &[AmlAction::CtrCandidate]),
            Typology::Structuring => (AmlOutcome::Review, &[AmlAction::CtrCandidate, AmlAction::SarCandidate]),
            Typology::CddThreshold => (AmlOutcome::HoldWithdrawal, &[AmlAction::RequireKycTier, AmlAction::LockWithdrawalsUntilCdd]),
            Typology::MinimalPlay => (AmlOutcome::HoldWithdrawal, &[AmlAction::SarCandidate]),
            Typology::MultipleInstruments => (AmlOutcome::Review, &[]),
            Typology::Velocity => (AmlOutcome::Review, &[]),
            Typology::DormantReactivation => (AmlOutcome::Review, &[]),
            Typology::P2pDumping => (AmlOutcome::HoldWithdrawal, &[AmlAction::SarCandidate]),
            // money no threshold could read: the team converts it by hand
            Typology::UnconvertibleCurrency => (AmlOutcome::Review, &[]),
        }
    }
}

/// `amount_cents` of `rate.currency` in minor units of `rate.per_unit_of`,
/// rounded half up; `None` when the rate is not usable (not positive, digits
/// beyond [`MAX_RATE_DIGITS`]) or the result passes [`crate::MAX_AMOUNT_CENTS`].
pub fn convert(amount_cents: i64, rate: &AmlRate) -> Option<i64> {
    let digits = [rate.rate_scale, u32::from(rate.currency_exponent), u32::from(rate.per_unit_exponent)];
    if rate.rate_units <= 0 || amount_cents < 0 || digits.iter().any(|d| *d > MAX_RATE_DIGITS) {
        return None;
    }
    let ten = |d: u32| 10i128.checked_pow(d);
    // amount / 10^from × units / 10^scale × 10^to
    let numerator = i128::from(amount_cents).checked_mul(i128::from(rate.rate_units))?.checked_mul(ten(u32::from(rate.per_unit_exponent))?)?;
    let denominator = ten(rate.rate_scale)?.checked_mul(ten(u32::from(rate.currency_exponent))?)?;
    let converted = (numerator.checked_add(denominator / 2)?) / denominator;
    i64::try_from(converted).ok().filter(|c| *c <= crate::MAX_AMOUNT_CENTS)
}

/// The rules about a [`AmlStanding`].
pub trait AmlStandingRules {
    fn locks_withdrawals(self, verified: KycTier) -> bool;
}

impl AmlStandingRules for AmlStanding {
    /// Whether a user verified at `verified` may not be paid out.
    fn locks_withdrawals(self, verified: KycTier) -> bool {
        self.withdrawals_held || self.cdd_tier.is_some_and(|t| verified < t)
    }
}

/// Closing an AML case releases the withdrawal hold its alerts placed:
/// with no suspicion, or once the suspicion is reported (a SAR needs no
/// freeze; a UK consent request is answered or deemed given within its
/// deadline, which the case's due time already follows). A lock until due
/// diligence stays until the user is verified at its tier.
pub fn decide_aml_review(facts: &AmlReviewFacts) -> AmlReviewDecision {
    AmlReviewDecision {
        standing: AmlStanding { withdrawals_held: false, cdd_tier: facts.standing.cdd_tier },
        true_positive: facts.outcome == AmlReviewOutcome::Confirmed,
    }
}

/// A deposit's size class: four per doubling, from the two bits after the highest.
pub fn deposit_class(amount_cents: i64) -> u32 {
    let amount = amount_cents.max(1).unsigned_abs();
    let top = 63 - amount.leading_zeros();
    let next_two = if top >= 2 { (amount >> (top - 2)) & 0b11 } else { (amount << (2 - top)) & 0b11 };
    top * CLASSES_PER_DOUBLING + next_two as u32
}

/// The smallest amount above every amount of `class`.
fn class_ceiling(class: u32) -> i64 {
    let (top, two) = (class / CLASSES_PER_DOUBLING, i128::from(class % CLASSES_PER_DOUBLING));
    if top >= 63 {
        return i64::MAX;
    }
    // the class holds the amounts whose highest bits read 1ww: below (5 + ww) / 4 × 2^top
    let ceiling = ((5 + two) << top).div_euclid(4) + i128::from(((5 + two) << top).rem_euclid(4) != 0);
    i64::try_from(ceiling).unwrap_or(i64::MAX)
}

fn percent_of(amount: i64, percent: u32) -> i64 {
    i64::try_from(i128::from(amount) * i128::from(percent) / 100).unwrap_or(i64::MAX)
}

/// Sums of buckets.
#[derive(Default)]
struct Sums {
    in_cents: i64,
    in_count: u32,
    out_cents: i64,
    out_count: u32,
    wagered_cents: i64,
    largest_in: i64,
    largest_out: i64,
    near_threshold: u32,
    first_in: Option<i64>,
}

impl Sums {
    fn of<'a>(buckets: impl Iterator<Item = &'a AmlBucket>) -> Sums {
        let mut s = Sums::default();
        for b in buckets {
            s.in_cents = s.in_cents.saturating_add(b.in_cents);
            s.in_count = s.in_count.saturating_add(b.in_count);
            s.out_cents = s.out_cents.saturating_add(b.out_cents);
            s.out_count = s.out_count.saturating_add(b.out_count);
            s.wagered_cents = s.wagered_cents.saturating_add(b.wagered_cents);
            s.largest_in = s.largest_in.max(b.largest_in_cents);
            s.largest_out = s.largest_out.max(b.largest_out_cents);
            s.near_threshold = s.near_threshold.saturating_add(b.near_threshold_count);
            if b.in_count > 0 {
                s.first_in = Some(s.first_in.map_or(b.start, |f| f.min(b.start)));
            }
        }
        s
    }

    /// Sums of hours.
    fn of_hours<'a>(hours: impl Iterator<Item = &'a AmlHour>) -> Sums {
        let mut s = Sums::default();
        for h in hours {
            s.in_cents = s.in_cents.saturating_add(h.in_cents);
            s.in_count = s.in_count.saturating_add(h.in_count);
            s.out_cents = s.out_cents.saturating_add(h.out_cents);
            s.wagered_cents = s.wagered_cents.saturating_add(h.wagered_cents);
            s.near_threshold = s.near_threshold.saturating_add(h.near_threshold_count);
            if h.in_count > 0 {
                s.first_in = Some(s.first_in.map_or(h.start, |f| f.min(h.start)));
            }
        }
        s
    }

    /// These sums with the event added, at `amount` in the profile's currency.
    fn with(mut self, event: &AmlEvent, amount: i64, at_bucket: i64, near_threshold: bool) -> Sums {
        match event.event_type {
            AmlEventType::Deposit => {
                self.in_cents = self.in_cents.saturating_add(amount);
                self.in_count = self.in_count.saturating_add(1);
                self.largest_in = self.largest_in.max(amount);
                self.first_in = Some(self.first_in.map_or(at_bucket, |f| f.min(at_bucket)));
            }
            AmlEventType::Withdrawal => {
                self.out_cents = self.out_cents.saturating_add(amount);
                self.out_count = self.out_count.saturating_add(1);
                self.largest_out = self.largest_out.max(amount);
            }
            AmlEventType::Wager => self.wagered_cents = self.wagered_cents.saturating_add(amount),
            _ => {}
        }
        if near_threshold {
            self.near_threshold = self.near_threshold.saturating_add(1);
        }
        self
    }
}

struct Rule<'a> {
    facts: &'a AmlFacts,
    fired: Vec<FiredRule>,
}

impl Rule<'_> {
    fn fire(&mut self, typology: Typology, inputs: &[(&str, i64)], window_from: i64, threshold: i64) {
        self.fired.push(FiredRule {
            rule_id: alloc::format!("aml.{}", typology.as_str()),
            version: typology.version(),
            reason_code: typology,
            inputs: inputs.iter().map(|(name, value)| AmlInput { name: name.to_string(), value: *value }).collect(),
            window_from,
            window_to: self.facts.now.max(self.facts.event.at),
            threshold,
        });
    }
}

fn hour_of(at: i64) -> i64 {
    at.div_euclid(HOUR) * HOUR
}

/// Adds `working_days` Monday-to-Friday days to `at` (UTC).
fn add_working_days(at: i64, working_days: u32) -> i64 {
    let mut day = at.div_euclid(DAY);
    let mut left = working_days;
    while left > 0 {
        day += 1;
        // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays
        if (day + 3).rem_euclid(7) < 5 {
            left -= 1;
        }
    }
    at.saturating_add((day - at.div_euclid(DAY)).saturating_mul(DAY))
}

/// The event's amount in the profile's currency: as it is, or converted at
/// the facts' rate when that rate is from the event's currency to the
/// profile's; `None` when no such rate is given.
fn in_profile_currency(facts: &AmlFacts, p: &AmlParameters) -> Option<i64> {
    let event = &facts.event;
    if event.currency == p.currency {
        return Some(event.amount_cents);
    }
    facts.rate.as_ref().filter(|r| r.currency == event.currency && r.per_unit_of == p.currency).and_then(|r| convert(event.amount_cents, r))
}

/// Decides one event. Money in another currency than the profile's is
/// converted at the reference rate the facts name and then summed like any
/// other; without a usable rate it is flagged `unconvertible_currency` for
/// the team, never silently left out. An amount must be positive for money
/// events (an added instrument carries none).
pub fn decide_aml(facts: &AmlFacts) -> Result<AmlDecision, RuleError> {
    let event = &facts.event;
    let carries_money = event.event_type != AmlEventType::InstrumentAdded;
    if carries_money {
        positive_amount(event.amount_cents)?;
    }
    let p = aml_parameters(&facts.jurisdiction);
    let converted = if carries_money { in_profile_currency(facts, &p) } else { None };
    let monitored = converted.is_some();
    let amount = converted.unwrap_or(0);
    let is_cash = event.payment_method == PaymentMethod::Cash;
    let moves_money = matches!(event.event_type, AmlEventType::Deposit | AmlEventType::Withdrawal);
    let now = facts.now.max(event.at);
    let mut rule = Rule { facts, fired: Vec::new() };

    let near_threshold = monitored
        && is_cash
        && moves_money
        && p.ctr_threshold_cents.is_some_and(|ctr| amount >= percent_of(ctr, p.structuring_band_percent) && amount <= ctr);
    let cash = |b: &&AmlBucket| b.payment_method == PaymentMethod::Cash;
    let day_all = Sums::of(facts.gaming_day.iter()).with(event, amount, facts.gaming_day_start, false);
    let day_cash =
        if is_cash { Sums::of(facts.gaming_day.iter().filter(cash)).with(event, amount, facts.gaming_day_start, false) } else { Sums::default() };
    let hours_since = |from: i64| facts.hours.iter().filter(move |h| h.start >= hour_of(from));

    if monitored && moves_money {
        // ctr_threshold and structuring: cash in or out in the gaming day
        if let (Some(ctr), true) = (p.ctr_threshold_cents, is_cash) {
            let deposit = event.event_type == AmlEventType::Deposit;
            let (total, count, largest, side) = if deposit {
                (day_cash.in_cents, day_cash.in_count, day_cash.largest_in, "cash_in_cents")
            } else {
                (day_cash.out_cents, day_cash.out_count, day_cash.largest_out, "cash_out_cents")
            };
            if total > ctr {
                rule.fire(Typology::CtrThreshold, &[(side, total), ("transactions", i64::from(count))], facts.gaming_day_start, ctr);
                if count >= 2 && largest <= ctr {
                    rule.fire(
                        Typology::Structuring,
                        &[(side, total), ("transactions", i64::from(count)), ("largest_cents", largest)],
                        facts.gaming_day_start,
                        ctr,
                    );
                }
            }
            if near_threshold {
                let from = now.saturating_sub(p.structuring_window_seconds);
                let repeats = Sums::of_hours(hours_since(from)).near_threshold.saturating_add(1);
                if repeats >= p.structuring_band_repeats && !rule.fired.iter().any(|f| f.reason_code == Typology::Structuring) {
                    rule.fire(
                        Typology::Structuring,
                        &[("near_threshold_transactions", i64::from(repeats)), ("band_from_cents", percent_of(ctr, p.structuring_band_percent))],
                        from,
                        ctr,
                    );
                }
            }
        }
        // cdd_threshold: single or linked in the gaming day, without due diligence
        if facts.verified < p.cdd_tier {
            let deposit = event.event_type == AmlEventType::Deposit;
            let linked = if deposit { day_all.in_cents } else { day_all.out_cents };
            if linked >= p.cdd_threshold_cents {
                let side = if deposit { "linked_deposits_cents" } else { "linked_withdrawals_cents" };
                rule.fire(Typology::CddThreshold, &[(side, linked), ("single_cents", amount)], facts.gaming_day_start, p.cdd_threshold_cents);
            }
        }
    }

    if monitored && event.event_type == AmlEventType::Withdrawal {
        // minimal_play: deposits in the window, then a withdrawal with little play since
        let from = now.saturating_sub(p.minimal_play_window_seconds);
        let window = Sums::of_hours(hours_since(from));
        if let Some(first_in) = window.first_in {
            let wagered = Sums::of_hours(hours_since(first_in)).wagered_cents;
            let bar = percent_of(window.in_cents, p.minimal_play_wager_percent);
            if window.in_cents > 0 && wagered < bar {
                rule.fire(
                    Typology::MinimalPlay,
                    &[("deposits_cents", window.in_cents), ("wagered_cents", wagered), ("withdrawal_cents", amount)],
                    first_in,
                    bar,
                );
            }
        }
    }

    if monitored && event.event_type == AmlEventType::Deposit {
        // velocity: money in over the window
        let from = now.saturating_sub(p.velocity_window_seconds);
        let total = Sums::of_hours(hours_since(from)).with(event, amount, hour_of(event.at), false).in_cents;
        if total >= p.velocity_threshold_cents {
            rule.fire(Typology::Velocity, &[("deposits_cents", total)], from, p.velocity_threshold_cents);
        }
        // dormant_reactivation: a long silence, then a deposit above the user's own percentile
        if let Some(last) = facts.last_seen_at {
            let silent = event.at.saturating_sub(last);
            if silent >= p.dormant_seconds {
                if let Some(percentile) = percentile_ceiling(&facts.deposit_classes, p.dormant_percentile) {
                    if amount >= percentile {
                        rule.fire(
                            Typology::DormantReactivation,
                            &[("inactive_seconds", silent), ("deposit_cents", amount), ("percentile_cents", percentile)],
                            last,
                            percentile,
                        );
                    }
                }
            }
        }
    }

    // multiple_instruments: distinct instruments in the window, this one included
    if let Some(instrument) = &event.instrument {
        let from = now.saturating_sub(p.instruments_window_seconds);
        let mut distinct: Vec<&str> = facts.instruments.iter().filter(|i| i.last_seen_at >= from).map(|i| i.instrument.as_str()).collect();
        distinct.push(instrument);
        distinct.sort_unstable();
        distinct.dedup();
        let count = u32::try_from(distinct.len()).unwrap_or(u32::MAX);
        if count >= p.instruments_count {
            rule.fire(Typology::MultipleInstruments, &[("instruments", i64::from(count))], from, i64::from(p.instruments_count));
        }
    }

    // p2p_dumping: repeated one-way transfers to one counterparty
    if let (AmlEventType::P2pTransfer, Some(pair), true) = (event.event_type, facts.pair, monitored) {
        let sent = pair.sent_cents.saturating_add(amount);
        let count = pair.sent_count.saturating_add(1);
        if count >= p.p2p_transfers && pair.received_cents <= percent_of(sent, p.p2p_return_percent) {
            rule.fire(
                Typology::P2pDumping,
                &[("transfers", i64::from(count)), ("sent_cents", sent), ("received_cents", pair.received_cents)],
                pair.first_sent_at.unwrap_or(event.at),
                i64::from(p.p2p_transfers),
            );
        }
    }

    // unconvertible_currency: money no threshold can read is flagged, never skipped
    if carries_money && !monitored {
        rule.fire(Typology::UnconvertibleCurrency, &[("amount_cents", event.amount_cents)], facts.gaming_day_start, 0);
    }

    let fired = rule.fired;
    let mut outcome = AmlOutcome::Approve;
    let mut actions: Vec<AmlAction> = Vec::new();
    let mut standing = facts.standing;
    for f in &fired {
        let (band, follows) = f.reason_code.band();
        outcome = outcome.max(band);
        for a in follows {
            if !actions.contains(a) {
                actions.push(*a);
            }
        }
    }
    if outcome >= AmlOutcome::HoldWithdrawal && fired.iter().any(|f| f.reason_code != Typology::CddThreshold) {
        standing.withdrawals_held = true;
    }
    if actions.contains(&AmlAction::LockWithdrawalsUntilCdd) {
        standing.cdd_tier = Some(standing.cdd_tier.map_or(p.cdd_tier, |t| t.max(p.cdd_tier)));
    }
    // a withdrawal reported while withdrawals are held or locked is not to be paid
    if event.event_type == AmlEventType::Withdrawal && facts.standing.locks_withdrawals(facts.verified) {
        outcome = AmlOutcome::Decline;
    }
    actions.sort_unstable();
    let alert: Vec<Typology> = fired
        .iter()
        .filter(|f| !facts.alerted.iter().any(|a| a.typology == f.reason_code && a.at >= f.window_from))
        .map(|f| f.reason_code)
        .fold(Vec::new(), |mut v, t| {
            if !v.contains(&t) {
                v.push(t);
            }
            v
        });
    let due_at = (!alert.is_empty()).then(|| {
        let mut due = now.saturating_add(i64::from(p.sar_days) * DAY);
        if actions.contains(&AmlAction::CtrCandidate) {
            due = due.min(now.saturating_add(i64::from(p.ctr_days) * DAY));
        }
        if let (Some(days), true) = (p.consent_working_days, actions.contains(&AmlAction::SarCandidate)) {
            due = due.min(add_working_days(now, days));
        }
        due
    });
    Ok(AmlDecision {
        outcome,
        required_tier: actions.contains(&AmlAction::RequireKycTier).then_some(p.cdd_tier),
        actions,
        fired,
        alert,
        due_at,
        standing,
        counters: AmlCounters {
            near_threshold,
            deposit_class: (event.event_type == AmlEventType::Deposit && monitored).then(|| deposit_class(amount)),
            amount_cents: converted,
        },
    })
}

/// The ceiling of the class holding the `percentile`th deposit; `None` without deposits.
fn percentile_ceiling(classes: &[u32], percentile: u32) -> Option<i64> {
    let total: u64 = classes.iter().map(|c| u64::from(*c)).sum();
    if total == 0 {
        return None;
    }
    let rank = (total * u64::from(percentile)).div_ceil(100).max(1);
    let mut seen = 0u64;
    for (class, count) in classes.iter().enumerate() {
        seen += u64::from(*count);
        if seen >= rank {
            return Some(class_ceiling(u32::try_from(class).unwrap_or(u32::MAX)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const T0: i64 = 1_800_000_000; // a Friday, 2027-01-15 08:00 UTC
    const DAY_START: i64 = T0 - 8 * HOUR;

    fn event(event_type: AmlEventType, amount: i64, method: PaymentMethod, at: i64) -> AmlEvent {
        AmlEvent { event_type, amount_cents: amount, currency: "USD".to_string(), payment_method: method, at, instrument: None }
    }

    fn facts(e: AmlEvent) -> AmlFacts {
        AmlFacts {
            now: e.at,
            jurisdiction: "default".to_string(),
            event: e,
            gaming_day_start: DAY_START,
            gaming_day_end: DAY_START + DAY,
            gaming_day: vec![],
            hours: vec![],
            instruments: vec![],
            pair: None,
            last_seen_at: None,
            deposit_classes: vec![],
            verified: KycTier::Tier2,
            standing: AmlStanding::default(),
            alerted: vec![],
            rate: None,
        }
    }

    /// EUR 1 = USD `units / 10^4`.
    fn eur_usd(units: i64) -> AmlRate {
        AmlRate {
            version: "v1".to_string(),
            date: "2027-01-15".to_string(),
            currency: "EUR".to_string(),
            currency_exponent: 2,
            per_unit_of: "USD".to_string(),
            per_unit_exponent: 2,
            rate_units: units,
            rate_scale: 4,
        }
    }

    fn bucket(start: i64, method: PaymentMethod) -> AmlBucket {
        AmlBucket::empty(start, method)
    }

    fn hour(b: &AmlBucket) -> AmlHour {
        AmlHour {
            start: b.start,
            in_cents: b.in_cents,
            in_count: b.in_count,
            out_cents: b.out_cents,
            wagered_cents: b.wagered_cents,
            near_threshold_count: b.near_threshold_count,
        }
    }

    fn hours(buckets: &[AmlBucket]) -> Vec<AmlHour> {
        buckets.iter().map(hour).collect()
    }

    fn cash_in(start: i64, cents: i64, count: u32, largest: i64) -> AmlBucket {
        AmlBucket { in_cents: cents, in_count: count, largest_in_cents: largest, ..bucket(start, PaymentMethod::Cash) }
    }

    fn reasons(d: &AmlDecision) -> Vec<Typology> {
        d.fired.iter().map(|f| f.reason_code).collect()
    }

    fn decide(f: &AmlFacts) -> AmlDecision {
        decide_aml(f).unwrap()
    }

    #[test]
    fn one_cash_deposit_over_the_ctr_threshold_is_a_ctr_not_structuring() {
        let over = decide(&facts(event(AmlEventType::Deposit, 1_000_001, PaymentMethod::Cash, T0)));
        assert_eq!(reasons(&over), [Typology::CtrThreshold]);
        assert_eq!(over.outcome, AmlOutcome::Review);
        assert_eq!(over.actions, [AmlAction::CtrCandidate]);
        assert_eq!(over.due_at, Some(T0 + 15 * DAY));
        assert_eq!(over.fired[0].window_from, DAY_START);
        assert_eq!(over.fired[0].threshold, 1_000_000);
        // exactly the threshold is not over it
        let at = decide(&facts(event(AmlEventType::Deposit, 1_000_000, PaymentMethod::Cash, T0)));
        assert!(!reasons(&at).contains(&Typology::CtrThreshold));
        // a card deposit is no cash
        let card = decide(&facts(event(AmlEventType::Deposit, 2_000_000, PaymentMethod::Card, T0)));
        assert!(!reasons(&card).contains(&Typology::CtrThreshold));
    }

    #[test]
    fn cash_split_below_the_threshold_across_a_gaming_day_is_structuring() {
        let mut f = facts(event(AmlEventType::Deposit, 400_000, PaymentMethod::Cash, T0));
        f.gaming_day = vec![cash_in(DAY_START, 700_000, 2, 400_000)];
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::CtrThreshold, Typology::Structuring]);
        assert!(d.actions.contains(&AmlAction::CtrCandidate) && d.actions.contains(&AmlAction::SarCandidate));
        assert_eq!(d.alert, [Typology::CtrThreshold, Typology::Structuring]);
        // the same split that stays at the threshold: nothing
        f.event.amount_cents = 300_000;
        assert!(decide(&f).fired.is_empty());
        // cash in another gaming day is not in this one's buckets: the caller passes only today's
        f.gaming_day.clear();
        f.event.amount_cents = 400_000;
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn repeated_near_threshold_amounts_in_a_week_are_structuring() {
        let mut f = facts(event(AmlEventType::Deposit, 850_000, PaymentMethod::Cash, T0));
        let d = decide(&f);
        assert!(d.counters.near_threshold && d.fired.is_empty());
        let mut earlier = cash_in(T0 - 3 * DAY, 900_000, 1, 900_000);
        earlier.near_threshold_count = 1;
        f.hours = hours(&[earlier.clone()]);
        assert!(decide(&f).fired.is_empty(), "two in the band are not yet a pattern");
        let mut another = cash_in(T0 - 5 * DAY, 800_000, 1, 800_000);
        another.near_threshold_count = 1;
        f.hours.push(hour(&another));
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::Structuring]);
        assert_eq!(d.fired[0].window_from, T0 - 7 * DAY);
        // below the band (79.99%): not counted, no pattern
        f.event.amount_cents = 799_999;
        let below = decide(&f);
        assert!(!below.counters.near_threshold && below.fired.is_empty());
        // band members older than the window do not count
        f.event.amount_cents = 850_000;
        f.hours = hours(&[earlier.clone(), AmlBucket { start: T0 - 8 * DAY, ..earlier }]);
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn cdd_threshold_counts_linked_deposits_of_an_unverified_user() {
        let mut f = facts(event(AmlEventType::Deposit, 100_000, PaymentMethod::Card, T0));
        f.verified = KycTier::Tier0;
        f.gaming_day = vec![AmlBucket { in_cents: 100_000, in_count: 1, largest_in_cents: 100_000, ..bucket(DAY_START, PaymentMethod::EWallet) }];
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::CddThreshold]);
        assert_eq!(d.outcome, AmlOutcome::HoldWithdrawal);
        assert_eq!(d.required_tier, Some(KycTier::Tier2));
        assert!(d.actions.contains(&AmlAction::LockWithdrawalsUntilCdd));
        assert_eq!(d.standing, AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) });
        // one cent short
        f.event.amount_cents = 99_999;
        assert!(decide(&f).fired.is_empty());
        // due diligence done: nothing
        f.event.amount_cents = 100_000;
        f.verified = KycTier::Tier2;
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn minimal_play_is_a_deposit_then_a_withdrawal_with_little_wagering() {
        let mut f = facts(event(AmlEventType::Withdrawal, 490_000, PaymentMethod::BankTransfer, T0));
        let deposited = AmlBucket { in_cents: 500_000, in_count: 1, largest_in_cents: 500_000, ..bucket(T0 - 10 * HOUR, PaymentMethod::Card) };
        let played = |cents| AmlBucket { wagered_cents: cents, ..bucket(T0 - 9 * HOUR, PaymentMethod::Other) };
        f.hours = hours(&[deposited.clone(), played(10_000)]);
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::MinimalPlay]);
        assert_eq!(d.outcome, AmlOutcome::HoldWithdrawal);
        assert!(d.standing.withdrawals_held);
        assert_eq!(d.fired[0].threshold, 50_000);
        // wagering at 10%: ordinary play
        f.hours = hours(&[deposited.clone(), played(50_000)]);
        assert!(decide(&f).fired.is_empty());
        // the deposit older than 48 hours: not linked
        f.hours = hours(&[AmlBucket { start: T0 - 49 * HOUR, ..deposited }, played(10_000)]);
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn three_instruments_in_a_week_and_not_two() {
        let mut e = event(AmlEventType::InstrumentAdded, 0, PaymentMethod::Card, T0);
        e.instrument = Some("c".to_string());
        let mut f = facts(e);
        f.instruments = vec![AmlInstrument { instrument: "a".to_string(), last_seen_at: T0 - DAY }];
        assert!(decide(&f).fired.is_empty());
        f.instruments.push(AmlInstrument { instrument: "b".to_string(), last_seen_at: T0 - 6 * DAY });
        assert_eq!(reasons(&decide(&f)), [Typology::MultipleInstruments]);
        // the same instrument again is not a third
        f.event.instrument = Some("a".to_string());
        assert!(decide(&f).fired.is_empty());
        // one seen eight days ago has left the window
        f.event.instrument = Some("c".to_string());
        f.instruments[1].last_seen_at = T0 - 8 * DAY;
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn velocity_counts_a_day_of_money_in() {
        let mut f = facts(event(AmlEventType::Deposit, 500_000, PaymentMethod::Card, T0));
        f.hours = hours(&[AmlBucket { in_cents: 1_000_000, in_count: 2, largest_in_cents: 500_000, ..bucket(T0 - 20 * HOUR, PaymentMethod::Card) }]);
        assert_eq!(reasons(&decide(&f)), [Typology::Velocity]);
        f.event.amount_cents = 499_999;
        assert!(decide(&f).fired.is_empty());
        f.event.amount_cents = 500_000;
        f.hours[0].start = T0 - 26 * HOUR;
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn a_dormant_user_depositing_above_their_own_habit() {
        let mut f = facts(event(AmlEventType::Deposit, 200_000, PaymentMethod::Card, T0));
        f.last_seen_at = Some(T0 - 181 * DAY);
        let mut classes = vec![0u32; DEPOSIT_CLASSES as usize];
        classes[deposit_class(5_000) as usize] = 40;
        f.deposit_classes = classes.clone();
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::DormantReactivation]);
        // the user's usual amount: no alert
        f.event.amount_cents = 5_000;
        assert!(decide(&f).fired.is_empty());
        // active recently: no alert
        f.event.amount_cents = 200_000;
        f.last_seen_at = Some(T0 - 179 * DAY);
        assert!(decide(&f).fired.is_empty());
        // no deposits before: no habit to exceed
        f.last_seen_at = Some(T0 - 400 * DAY);
        f.deposit_classes = vec![];
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn one_way_transfers_to_one_counterparty() {
        let mut f = facts(event(AmlEventType::P2pTransfer, 10_000, PaymentMethod::EWallet, T0));
        f.pair = Some(AmlPair { sent_count: 2, sent_cents: 20_000, received_count: 0, received_cents: 0, first_sent_at: Some(T0 - DAY) });
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::P2pDumping]);
        assert_eq!(d.outcome, AmlOutcome::HoldWithdrawal);
        // money comes back: not one-way
        f.pair = Some(AmlPair { received_count: 2, received_cents: 15_000, ..f.pair.unwrap_or_default() });
        assert!(decide(&f).fired.is_empty());
        // the second transfer: not yet repeated
        f.pair = Some(AmlPair { sent_count: 1, sent_cents: 10_000, ..AmlPair::default() });
        assert!(decide(&f).fired.is_empty());
    }

    #[test]
    fn an_alerted_typology_is_not_alerted_again_in_its_window() {
        let mut f = facts(event(AmlEventType::Deposit, 1_200_000, PaymentMethod::Cash, T0));
        f.alerted = vec![AmlAlerted { typology: Typology::CtrThreshold, at: DAY_START + HOUR }];
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::CtrThreshold], "it still fires, as evidence");
        assert!(d.alert.is_empty() && d.due_at.is_none());
        // alerted yesterday: a new gaming day alerts again
        f.alerted[0].at = DAY_START - 1;
        assert_eq!(decide(&f).alert, [Typology::CtrThreshold]);
    }

    #[test]
    fn an_ordinary_player_gets_approve() {
        let mut f = facts(event(AmlEventType::Deposit, 5_000, PaymentMethod::Card, T0));
        f.verified = KycTier::Tier0;
        f.hours = hours(&[AmlBucket {
            in_cents: 10_000,
            in_count: 2,
            wagered_cents: 40_000,
            won_cents: 30_000,
            ..bucket(T0 - 5 * HOUR, PaymentMethod::Card)
        }]);
        let d = decide(&f);
        assert_eq!((d.outcome, d.fired.len(), d.alert.len()), (AmlOutcome::Approve, 0, 0));
        assert_eq!(d.standing, AmlStanding::default());
    }

    #[test]
    fn closing_a_case_releases_its_hold_and_keeps_the_cdd_lock() {
        let standing = AmlStanding { withdrawals_held: true, cdd_tier: Some(KycTier::Tier2) };
        for outcome in AmlReviewOutcome::ALL {
            let d = decide_aml_review(&AmlReviewFacts { outcome: *outcome, standing });
            assert_eq!(d.standing, AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) });
            assert_eq!(d.true_positive, *outcome == AmlReviewOutcome::Confirmed);
        }
    }

    #[test]
    fn a_withdrawal_reported_while_held_is_declined() {
        let mut f = facts(event(AmlEventType::Withdrawal, 1_000, PaymentMethod::Card, T0));
        f.standing.withdrawals_held = true;
        assert_eq!(decide(&f).outcome, AmlOutcome::Decline);
        f.standing = AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) };
        f.verified = KycTier::Tier1;
        assert_eq!(decide(&f).outcome, AmlOutcome::Decline);
        f.verified = KycTier::Tier2;
        assert_eq!(decide(&f).outcome, AmlOutcome::Approve);
    }

    #[test]
    fn another_currency_without_a_rate_is_flagged_never_skipped_and_amounts_must_be_positive() {
        let mut e = event(AmlEventType::Deposit, 5_000_000, PaymentMethod::Cash, T0);
        e.currency = "EUR".to_string();
        let d = decide(&facts(e.clone()));
        assert_eq!(reasons(&d), [Typology::UnconvertibleCurrency]);
        assert_eq!((d.outcome, d.alert.clone(), d.counters.amount_cents), (AmlOutcome::Review, vec![Typology::UnconvertibleCurrency], None));
        // a rate for another pair is no rate for this one
        let mut wrong = facts(e.clone());
        wrong.rate = Some(AmlRate { currency: "GBP".to_string(), ..eur_usd(10_800) });
        assert_eq!(reasons(&decide(&wrong)), [Typology::UnconvertibleCurrency]);
        // an added instrument carries no money: nothing to convert
        let mut added = event(AmlEventType::InstrumentAdded, 0, PaymentMethod::Card, T0);
        added.currency = String::new();
        added.instrument = Some("a".to_string());
        assert!(decide(&facts(added)).fired.is_empty());
        let mut gb = facts(e);
        gb.jurisdiction = "DE".to_string();
        assert!(reasons(&decide(&gb)).contains(&Typology::Velocity));
        assert!(!reasons(&decide(&gb)).contains(&Typology::CtrThreshold), "Germany has no CTR");
        assert_eq!(decide_aml(&facts(event(AmlEventType::Deposit, 0, PaymentMethod::Cash, T0))), Err(RuleError::NonPositiveAmount));
    }

    #[test]
    fn a_rate_converts_in_minor_units_with_each_currencys_exponent() {
        assert_eq!(convert(210_000, &eur_usd(10_800)), Some(226_800), "EUR 2,100 at 1.08");
        assert_eq!(convert(1, &eur_usd(10_850)), Some(1), "1.085 cents rounds half up to 1");
        assert_eq!(convert(2, &eur_usd(12_500)), Some(3), "2.5 cents rounds half up");
        // JPY has no minor unit, KWD three: 1,000 JPY at 0.0064 USD = 6.40 USD
        let jpy = AmlRate { currency: "JPY".to_string(), currency_exponent: 0, rate_units: 64, ..eur_usd(0) };
        assert_eq!(convert(1_000, &jpy), Some(640));
        let to_kwd = AmlRate { per_unit_of: "KWD".to_string(), per_unit_exponent: 3, ..eur_usd(3_300) };
        assert_eq!(convert(100, &to_kwd), Some(330), "EUR 1 at 0.33 is 0.330 KWD");
        // not a rate: zero, negative, too many digits; a result past the largest amount
        assert_eq!(convert(100, &eur_usd(0)), None);
        assert_eq!(convert(100, &eur_usd(-1)), None);
        assert_eq!(convert(100, &AmlRate { rate_scale: 40, ..eur_usd(1) }), None);
        assert_eq!(convert(crate::MAX_AMOUNT_CENTS, &eur_usd(20_000)), None);
    }

    #[test]
    fn euros_linked_in_a_gaming_day_reach_the_cdd_threshold_once_converted() {
        // the spec's case: EUR 2,100 of linked deposits by an unverified user, default (USD) profile
        let mut e = event(AmlEventType::Deposit, 110_000, PaymentMethod::Card, T0);
        e.currency = "EUR".to_string();
        let mut f = facts(e);
        f.verified = KycTier::Tier0;
        f.rate = Some(eur_usd(10_800));
        // EUR 1,000 earlier the same gaming day, stored converted: USD 1,080
        f.gaming_day = vec![AmlBucket { in_cents: 108_000, in_count: 1, largest_in_cents: 108_000, ..bucket(DAY_START, PaymentMethod::Card) }];
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::CddThreshold]);
        assert_eq!(d.counters.amount_cents, Some(118_800));
        assert_eq!(d.fired[0].inputs[0].value, 226_800);
        // EUR 1,500 in all stays below USD 2,000
        f.event.amount_cents = 50_000;
        let below = decide(&f);
        assert!(below.fired.is_empty() && below.counters.amount_cents == Some(54_000));
    }

    #[test]
    fn gb_due_dates_follow_the_consent_deadline_in_working_days() {
        let mut f = facts(event(AmlEventType::Withdrawal, 100_000, PaymentMethod::Card, T0));
        f.jurisdiction = "GB".to_string();
        f.event.currency = "GBP".to_string();
        f.hours = hours(&[AmlBucket { in_cents: 100_000, in_count: 1, ..bucket(T0 - HOUR, PaymentMethod::Card) }]);
        let d = decide(&f);
        assert_eq!(reasons(&d), [Typology::MinimalPlay]);
        // Friday + 7 working days = the Tuesday after next
        assert_eq!(d.due_at, Some(T0 + 11 * DAY));
    }

    #[test]
    fn size_classes_are_ordered_and_ceilings_bound_them() {
        let mut last = 0;
        for amount in [1i64, 2, 3, 4, 5, 7, 8, 100, 5_000, 5_001, 9_999, 1 << 40, i64::MAX] {
            let class = deposit_class(amount);
            assert!(class >= last, "{amount}");
            assert!(amount < class_ceiling(class) || class_ceiling(class) == i64::MAX, "{amount} below its ceiling");
            last = class;
        }
        assert!(class_ceiling(deposit_class(5_000)) <= 6_000);
    }
}
