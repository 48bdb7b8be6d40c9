//! Backtests: the stored events replayed, in arrival order, through the live
//! rules component and a candidate, each over its own simulated buckets
//! (the candidate's decisions change its near-threshold counts and which
//! typologies it has alerted, so each keeps its own). Writes nothing. The
//! live replay must reproduce the alerts the store holds: a check that the
//! buckets here are the store's.

use std::collections::{BTreeMap, HashMap};

use rules_model::{
    AmlAlerted, AmlBucket, AmlEvent, AmlEventType, AmlFacts, AmlHour, AmlInstrument, AmlPair, AmlParameters, AmlStanding, KycTier, Typology,
};
use serde::Serialize;

use super::gaming_day::GamingDay;
use super::store::{self, BucketDelta};
use super::{delta, longest_window, Report};
use crate::error::{ApiError, ApiResult};
use crate::ports::{Rules, Store, MAX_STORED_INTEGER};

/// What to replay.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// every tenant when empty
    pub tenant_id: String,
    pub from: i64,
    pub to: i64,
}

/// One typology's alerts under both components.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct TypologyChange {
    pub typology: String,
    pub live_alerts: u64,
    pub candidate_alerts: u64,
    /// events where the candidate alerts on this typology and the live component does not
    pub added: u64,
    pub removed: u64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct BacktestReport {
    pub live_rules_sha256: String,
    pub candidate_rules_sha256: String,
    pub events: u64,
    pub users: u64,
    /// events whose outcome differs between the two
    pub outcomes_changed: u64,
    pub typologies: Vec<TypologyChange>,
    /// events where the live replay's alert differs from the stored one (0 when the buckets agree with the store)
    pub live_replay_mismatches: u64,
}

/// A bucket as the store keeps it: with its currency.
struct Kept {
    currency: String,
    bucket: AmlBucket,
}

/// A user's state as the store keeps it, in memory.
#[derive(Default)]
struct UserState {
    hours: Vec<Kept>,
    day_start: i64,
    day: Vec<Kept>,
    instruments: Vec<AmlInstrument>,
    classes: Vec<u32>,
    last_seen_at: Option<i64>,
    alerted: Vec<AmlAlerted>,
    standing: AmlStanding,
}

/// One component's world: every user's state and the transfers between them.
#[derive(Default)]
struct World {
    users: HashMap<(String, String), UserState>,
    /// (tenant, from, to) → (transfers, cents, first at)
    pairs: HashMap<(String, String, String), (u32, i64, i64)>,
}

fn add(buckets: &mut Vec<Kept>, start: i64, currency: &str, method: rules_model::PaymentMethod, d: BucketDelta) {
    let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    let index = match buckets.iter().position(|k| k.bucket.start == start && k.currency == currency && k.bucket.payment_method == method) {
        Some(i) => i,
        None => {
            buckets.push(Kept { currency: currency.to_string(), bucket: AmlBucket::empty(start, method) });
            buckets.len() - 1
        }
    };
    let Some(b) = buckets.get_mut(index).map(|k| &mut k.bucket) else { return };
    // the store's sums saturate at what every store keeps exactly
    let sum = |a: i64, b: i64| a.saturating_add(b).min(MAX_STORED_INTEGER);
    b.in_cents = sum(b.in_cents, d.in_cents);
    b.in_count = b.in_count.saturating_add(count(d.in_count));
    b.out_cents = sum(b.out_cents, d.out_cents);
    b.out_count = b.out_count.saturating_add(count(d.out_count));
    b.wagered_cents = sum(b.wagered_cents, d.wagered_cents);
    b.won_cents = sum(b.won_cents, d.won_cents);
    b.largest_in_cents = b.largest_in_cents.max(d.in_cents);
    b.largest_out_cents = b.largest_out_cents.max(d.out_cents);
    b.near_threshold_count = b.near_threshold_count.saturating_add(u32::from(d.near_threshold));
}

/// An event as stored, ready to decide.
struct Replayed {
    event: AmlEvent,
    counterparty: Option<String>,
    now: i64,
    /// the reference rate it was converted at live
    rate: Option<rules_model::AmlRate>,
}

fn replayed(stored: &store::StoredEvent, rules: &dyn Rules) -> ApiResult<Replayed> {
    let parsed = Report::parse(stored.payload.as_bytes(), rules)?;
    let now = stored.received_at;
    let at = parsed.occurred_at.map_or(now, |t| t.min(now));
    Ok(Replayed {
        event: AmlEvent {
            event_type: parsed.event_type,
            amount_cents: parsed.report.amount_cents.unwrap_or(0),
            currency: parsed.report.currency.unwrap_or_default(),
            payment_method: parsed.payment_method,
            at,
            // stored already as its hash
            instrument: parsed.report.instrument_id,
        },
        counterparty: parsed.report.counterparty_user_id,
        now,
        rate: stored.rate.as_deref().map(serde_json::from_str).transpose().map_err(|e| ApiError::internal().with_detail(e.to_string()))?,
    })
}

/// A tenant's settings, read once.
struct Tenant {
    jurisdiction: String,
    gaming_day: GamingDay,
    params: AmlParameters,
}

impl World {
    /// Decides one event with `rules` over this world's state, then adds it as the store would.
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        rules: &dyn Rules,
        tenant_id: &str,
        user_id: &str,
        tenant: &Tenant,
        r: &Replayed,
        verified: KycTier,
    ) -> ApiResult<Option<rules_model::AmlDecision>> {
        let at = r.event.at;
        let (day_start, day_end) = tenant.gaming_day.bounds(at).ok_or_else(ApiError::internal)?;
        let window = longest_window(&tenant.params);
        let pair = match (&r.counterparty, r.event.event_type) {
            (Some(c), AmlEventType::P2pTransfer) => {
                let mut pair = AmlPair::default();
                if let Some((n, cents, first)) = self.pairs.get(&(tenant_id.to_string(), user_id.to_string(), c.clone())) {
                    (pair.sent_count, pair.sent_cents, pair.first_sent_at) = (*n, *cents, Some(*first));
                }
                if let Some((n, cents, _)) = self.pairs.get(&(tenant_id.to_string(), c.clone(), user_id.to_string())) {
                    (pair.received_count, pair.received_cents) = (*n, *cents);
                }
                Some(pair)
            }
            _ => None,
        };
        let user = self.users.entry((tenant_id.to_string(), user_id.to_string())).or_default();
        let since = at.saturating_sub(window);
        let hour_floor = since.div_euclid(3_600) * 3_600;
        user.hours.retain(|k| k.bucket.start >= hour_floor.saturating_sub(3_600 * 24));
        let currency = tenant.params.currency.as_str();
        // the hours as the store sums them: the profile's currency, every method of an hour together
        let mut hours: Vec<AmlHour> = Vec::new();
        for k in user.hours.iter().filter(|k| k.currency == currency && k.bucket.start >= hour_floor) {
            let b = &k.bucket;
            let h = match hours.iter_mut().find(|h| h.start == b.start) {
                Some(h) => h,
                None => {
                    hours.push(AmlHour { start: b.start, ..AmlHour::default() });
                    let last = hours.len() - 1;
                    &mut hours[last]
                }
            };
            h.in_cents = h.in_cents.saturating_add(b.in_cents);
            h.in_count = h.in_count.saturating_add(b.in_count);
            h.out_cents = h.out_cents.saturating_add(b.out_cents);
            h.wagered_cents = h.wagered_cents.saturating_add(b.wagered_cents);
            h.near_threshold_count = h.near_threshold_count.saturating_add(b.near_threshold_count);
        }
        user.instruments.retain(|i| i.last_seen_at >= since.saturating_sub(3_600 * 24));
        let facts = AmlFacts {
            now: r.now,
            jurisdiction: tenant.jurisdiction.clone(),
            event: r.event.clone(),
            gaming_day_start: day_start,
            gaming_day_end: day_end,
            gaming_day: if user.day_start == day_start {
                user.day.iter().filter(|k| k.currency == currency).map(|k| k.bucket.clone()).collect()
            } else {
                Vec::new()
            },
            hours,
            instruments: user.instruments.iter().filter(|i| i.last_seen_at >= since).cloned().collect(),
            pair,
            last_seen_at: user.last_seen_at,
            deposit_classes: user.classes.clone(),
            verified,
            standing: user.standing,
            alerted: user.alerted.clone(),
            rate: r.rate.clone(),
        };
        let decision = match rules.decide_aml(&facts)? {
            Ok(d) => d,
            // refused facts are refused live too: nothing was stored for them
            Err(_) => return Ok(None),
        };
        user.standing = decision.standing;
        user.last_seen_at = Some(user.last_seen_at.map_or(at, |l| l.max(at)));
        let event = &r.event;
        // as live: in the profile's currency once converted, else in its own
        let (amount, bucket_currency) = match decision.counters.amount_cents {
            Some(converted) => (converted, tenant.params.currency.as_str()),
            None => (event.amount_cents, event.currency.as_str()),
        };
        if let Some(d) = delta(event.event_type, amount, decision.counters.near_threshold) {
            add(&mut user.hours, at.div_euclid(3_600) * 3_600, bucket_currency, event.payment_method, d);
            if user.day_start != day_start {
                user.day_start = day_start;
                user.day.clear();
            }
            add(&mut user.day, day_start, bucket_currency, event.payment_method, d);
        }
        if let Some(class) = decision.counters.deposit_class.and_then(|c| usize::try_from(c).ok()) {
            if user.classes.len() <= class {
                user.classes.resize(class + 1, 0);
            }
            if let Some(slot) = user.classes.get_mut(class) {
                *slot = slot.saturating_add(1);
            }
        }
        if let Some(i) = &event.instrument {
            match user.instruments.iter_mut().find(|x| &x.instrument == i) {
                Some(x) => x.last_seen_at = x.last_seen_at.max(at),
                None => user.instruments.push(AmlInstrument { instrument: i.clone(), last_seen_at: at }),
            }
        }
        for typology in &decision.alert {
            match user.alerted.iter_mut().find(|a| a.typology == *typology) {
                Some(a) => a.at = r.now,
                None => user.alerted.push(AmlAlerted { typology: *typology, at: r.now }),
            }
        }
        if let (Some(c), AmlEventType::P2pTransfer, Some(converted)) = (&r.counterparty, event.event_type, decision.counters.amount_cents) {
            let entry = self.pairs.entry((tenant_id.to_string(), user_id.to_string(), c.clone())).or_insert((0, 0, at));
            entry.0 = entry.0.saturating_add(1);
            entry.1 = entry.1.saturating_add(converted).min(MAX_STORED_INTEGER);
        }
        Ok(Some(decision))
    }
}

/// The reason codes an alert names: every rule that fired, once each.
fn alert_typologies(decision: &rules_model::AmlDecision) -> Vec<Typology> {
    if decision.alert.is_empty() {
        return Vec::new();
    }
    let mut all: Vec<Typology> = decision.fired.iter().map(|f| f.reason_code).collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// How many events a page reads.
const PAGE: i64 = 2_000;

/// Replays the scope's stored events through `live` and `candidate`.
pub async fn backtest(store: &dyn Store, live: &dyn Rules, candidate: &dyn Rules, scope: &Scope) -> ApiResult<BacktestReport> {
    let mut tenants: HashMap<String, Tenant> = HashMap::new();
    let (mut live_world, mut candidate_world) = (World::default(), World::default());
    let mut changes: BTreeMap<Typology, TypologyChange> =
        Typology::ALL.iter().map(|t| (*t, TypologyChange { typology: t.as_str().to_string(), ..TypologyChange::default() })).collect();
    let mut report = BacktestReport {
        live_rules_sha256: live.identity().component_sha256,
        candidate_rules_sha256: candidate.identity().component_sha256,
        ..BacktestReport::default()
    };
    let profiles = live.jurisdictions();
    let mut after = (i64::MIN, String::new());
    loop {
        let page = store::events_page(store, &scope.tenant_id, scope.from, scope.to, (after.0, &after.1), PAGE).await?;
        let Some(last) = page.last() else { break };
        after = (last.received_at, last.aml_event_id.clone());
        for stored in &page {
            if !tenants.contains_key(&stored.tenant_id) {
                let (jurisdiction, cutoff, zone) = store::tenant_settings(store, &stored.tenant_id).await?.ok_or_else(ApiError::internal)?;
                let params = profiles.iter().find(|p| p.name == jurisdiction).map(|p| p.aml.clone()).ok_or_else(ApiError::internal)?;
                tenants.insert(stored.tenant_id.clone(), Tenant { jurisdiction, gaming_day: GamingDay::from_stored(cutoff, &zone), params });
            }
            let tenant = tenants.get(&stored.tenant_id).ok_or_else(ApiError::internal)?;
            let r = replayed(stored, live)?;
            let verified = stored.verified_tier.as_deref().and_then(KycTier::parse).unwrap_or(KycTier::Tier0);
            let live_decision = live_world.decide(live, &stored.tenant_id, &stored.user_id, tenant, &r, verified)?;
            let candidate_decision = candidate_world.decide(candidate, &stored.tenant_id, &stored.user_id, tenant, &r, verified)?;
            report.events += 1;
            let live_alert = live_decision.as_ref().map(alert_typologies).unwrap_or_default();
            let candidate_alert = candidate_decision.as_ref().map(alert_typologies).unwrap_or_default();
            let stored_alert: Vec<String> = stored.alerted.as_deref().and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default();
            let mut live_names: Vec<String> = live_alert.iter().map(|t| t.as_str().to_string()).collect();
            let mut stored_sorted = stored_alert.clone();
            live_names.sort_unstable();
            stored_sorted.sort_unstable();
            if live_names != stored_sorted {
                report.live_replay_mismatches += 1;
            }
            if live_decision.as_ref().map(|d| d.outcome) != candidate_decision.as_ref().map(|d| d.outcome) {
                report.outcomes_changed += 1;
            }
            for (typology, change) in changes.iter_mut() {
                let (in_live, in_candidate) = (live_alert.contains(typology), candidate_alert.contains(typology));
                change.live_alerts += u64::from(in_live);
                change.candidate_alerts += u64::from(in_candidate);
                change.added += u64::from(in_candidate && !in_live);
                change.removed += u64::from(in_live && !in_candidate);
            }
        }
    }
    report.users = live_world.users.len() as u64;
    report.typologies = changes.into_values().collect();
    Ok(report)
}
