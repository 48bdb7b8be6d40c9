//! Differential test: the rules library called natively and the rules
//! component run in wasmtime must decide identically, call by call, on
//! random facts clustered on the rules' edges. It also holds the replay
//! path to the same standard: a decision's canonical output replays identically.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::sync::OnceLock;

use gateway::decisions::{canonical, replay};
use gateway::ports::Rules;
use host_native::rules_engine::ComponentRules;
use proptest::prelude::*;
use rules::*;
use rules_library::LibraryRules;

fn component() -> &'static ComponentRules {
    static RULES: OnceLock<ComponentRules> = OnceLock::new();
    // These tests compare answers, not the time bound (tests/runaway.rs does): a
    // call starved of CPU on a loaded machine must not read as a disagreement.
    RULES
        .get_or_init(|| ComponentRules::embedded().expect("load the embedded rules component").with_call_deadline(std::time::Duration::from_secs(60)))
}

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    prop::sample::select(all.to_vec())
}

/// Amounts clustered on the rules' edges as well as anywhere in range.
fn cents() -> impl Strategy<Value = i64> {
    prop_oneof![
        prop::sample::select(vec![
            -1,
            0,
            1,
            99,
            100,
            20_000,
            20_001,
            200_000,
            200_001,
            2_000_000,
            2_000_001,
            10_000_000,
            10_000_001,
            MAX_AMOUNT_CENTS,
            MAX_AMOUNT_CENTS + 1,
            i64::MAX,
            i64::MIN
        ]),
        -1_000i64..20_000_000,
        any::<i64>(),
    ]
}

fn moment() -> impl Strategy<Value = i64> {
    prop_oneof![0i64..4_000_000_000, Just(0), Just(i64::MAX), Just(i64::MIN)]
}

fn term() -> impl Strategy<Value = ExclusionTerm> {
    prop::option::of(0i64..4_000_000_000).prop_map(|expires_at| ExclusionTerm { expires_at })
}

fn stored_limit() -> impl Strategy<Value = StoredLimit> {
    (pick(LimitWindow::ALL), 0i64..100_000, any::<bool>(), pick(LimitStatus::ALL), 0i64..10_000_000, pick(&["", "USD", "EUR"])).prop_map(
        |(window, amount_cents, same_currency, status, effective_from, currency)| StoredLimit {
            window,
            amount_cents,
            same_currency,
            status,
            effective_from,
            currency: currency.to_string(),
        },
    )
}

const CURRENCIES: [&str; 3] = ["USD", "EUR", "JPY"];

fn deposits() -> impl Strategy<Value = Deposits> {
    prop::collection::vec((1i64..50_000, 0i64..10_000_000, pick(&CURRENCIES)), 0..60).prop_map(|d| Deposits {
        amount_cents: d.iter().map(|x| x.0).collect(),
        at: d.iter().map(|x| x.1).collect(),
        currency: d.iter().map(|x| x.2.to_string()).collect(),
    })
}

fn rate(currency: &str, per_unit_of: &str, rate_units: i64) -> AmlRate {
    let exponent = |c: &str| if c == "JPY" { 0 } else { 2 };
    AmlRate {
        version: "rates-v1".into(),
        date: "2027-01-15".into(),
        currency: currency.into(),
        currency_exponent: exponent(currency),
        per_unit_of: per_unit_of.into(),
        per_unit_exponent: exponent(per_unit_of),
        rate_units,
        rate_scale: 4,
    }
}

/// Rates between every pair of [`CURRENCIES`] (`all`), or some of them.
fn rates(all: bool) -> Vec<AmlRate> {
    let mut rates = vec![rate("EUR", "USD", 10_837), rate("USD", "EUR", 9_228)];
    if all {
        rates.extend([rate("JPY", "USD", 64), rate("JPY", "EUR", 59), rate("USD", "JPY", 1_562_500), rate("EUR", "JPY", 1_690_000)]);
    }
    rates
}

fn kyc_facts() -> impl Strategy<Value = KycFacts> {
    (
        moment(),
        pick(KycStatus::ALL),
        moment(),
        pick(KycTier::ALL),
        pick(KycTier::ALL),
        "[a-z]{0,4}(autoapprove|autoreject)?[a-z]{0,4}",
        (pick(KycAction::ALL), prop::option::of(pick(KycTier::ALL))),
        (pick(SanctionsStatus::ALL), any::<bool>(), prop::option::of(pick(KycTier::ALL))),
    )
        .prop_map(|(now, status, updated_at, target_tier, verified, external_user_id, (action, vendor_tier), (sanctions, held, cdd_tier))| {
            KycFacts {
                now,
                status,
                updated_at,
                target_tier,
                verified,
                external_user_id,
                action,
                vendor_tier,
                sanctions,
                aml: AmlStanding { withdrawals_held: held, cdd_tier },
            }
        })
}

/// A list entry with names drawn near the screened ones, so that scores above and below thresholds both occur.
fn candidate() -> impl Strategy<Value = ListCandidate> {
    (
        (pick(EntryKind::ALL), pick(rules::EntryTopic::ALL)),
        prop::collection::vec(prop_oneof![Just("SAM, Sanctioned".to_string()), Just("Sanctioned Sam".to_string()), "[A-Za-zéü ,-]{0,16}"], 1..4),
        prop::collection::vec(prop_oneof![Just("1990-01-01".to_string()), Just("1952".to_string()), "[0-9]{4}-[0-9]{2}"], 0..3),
        prop::collection::vec(prop_oneof![Just("GB".to_string()), Just("RU".to_string())], 0..2),
        prop_oneof![Just("fp-1".to_string()), Just("fp-2".to_string())],
    )
        .prop_map(|((kind, topic), names, dates_of_birth, nationalities, fingerprint)| ListCandidate {
            source: "test".into(),
            entity_id: "e-1".into(),
            kind,
            names,
            dates_of_birth,
            nationalities,
            topic,
            fingerprint,
        })
}

/// Each window's total as the store sums it: the deposits after its start, however recent.
/// One event of a stream: its type, amount, method, seconds after the one before, instrument and counterparty.
fn aml_step() -> impl Strategy<Value = (AmlEventType, i64, PaymentMethod, i64, Option<u8>)> {
    (
        pick(AmlEventType::ALL),
        prop_oneof![Just(100_000i64), Just(800_000), Just(1_000_000), Just(1_000_001), 1i64..2_000_000, cents()],
        pick(PaymentMethod::ALL),
        prop_oneof![Just(0i64), 1i64..7_200, Just(200 * 86_400)],
        prop::option::of(0u8..5),
    )
}

/// Facts for each event of a stream, with the buckets of the events before
/// it kept as a store would keep them (hours, one gaming day of UTC days),
/// in the profile's currency (USD or EUR by the stream's amounts).
fn aml_stream(jurisdiction: &str, verified: KycTier, steps: &[(AmlEventType, i64, PaymentMethod, i64, Option<u8>)]) -> Vec<AmlFacts> {
    let profile_currency = if jurisdiction == "DE" { "EUR" } else { "USD" };
    let mut at = 1_800_000_000i64;
    let mut hours: Vec<AmlHour> = Vec::new();
    let mut days: Vec<AmlBucket> = Vec::new();
    let mut instruments: Vec<AmlInstrument> = Vec::new();
    let mut classes = vec![0u32; 64];
    let mut last_seen = None;
    let mut pair = AmlPair::default();
    let mut out = Vec::new();
    for (event_type, amount, method, gap, instrument) in steps.iter().copied() {
        at += gap;
        let day = at.div_euclid(86_400) * 86_400;
        let currency = if amount % 7 == 0 { "EUR" } else { "USD" };
        let event = AmlEvent {
            event_type,
            amount_cents: amount,
            currency: currency.to_string(),
            payment_method: method,
            at,
            instrument: instrument.map(|i| format!("instrument-{i}")),
        };
        out.push(AmlFacts {
            now: at,
            jurisdiction: jurisdiction.to_string(),
            event,
            gaming_day_start: day,
            gaming_day_end: day + 86_400,
            gaming_day: days.iter().filter(|b| b.start == day).cloned().collect(),
            hours: hours.iter().filter(|h| h.start >= at - 7 * 86_400).copied().collect(),
            instruments: instruments.clone(),
            pair: (event_type == AmlEventType::P2pTransfer).then_some(pair),
            last_seen_at: last_seen,
            deposit_classes: classes.clone(),
            verified,
            standing: AmlStanding::default(),
            alerted: vec![],
            // half the euro events come with a reference rate to the profile's dollars
            rate: (currency == "EUR" && amount % 2 == 0).then(|| rules::AmlRate {
                version: "v1".to_string(),
                date: "2027-01-15".to_string(),
                currency: "EUR".to_string(),
                currency_exponent: 2,
                per_unit_of: "USD".to_string(),
                per_unit_exponent: 2,
                rate_units: 10_000 + amount % 1_000,
                rate_scale: 4,
            }),
        });
        if amount <= 0 || amount > MAX_AMOUNT_CENTS {
            continue;
        }
        let hour = at.div_euclid(3_600) * 3_600;
        let mut h = AmlHour { start: hour, ..AmlHour::default() };
        let mut b = AmlBucket::empty(day, method);
        match event_type {
            AmlEventType::Deposit => {
                (b.in_cents, b.in_count, b.largest_in_cents) = (amount, 1, amount);
                (h.in_cents, h.in_count) = (amount, 1);
                let class = deposit_class(amount) as usize;
                if class < classes.len() {
                    classes[class] += 1;
                }
            }
            AmlEventType::Withdrawal => {
                (b.out_cents, b.out_count, b.largest_out_cents) = (amount, 1, amount);
                h.out_cents = amount;
            }
            AmlEventType::Wager => (b.wagered_cents, h.wagered_cents) = (amount, amount),
            AmlEventType::P2pTransfer => {
                pair.sent_count += 1;
                pair.sent_cents += amount;
                pair.first_sent_at.get_or_insert(at);
            }
            _ => b.won_cents = amount,
        }
        if currency == profile_currency {
            hours.push(h);
            days.push(b);
        }
        if let Some(i) = instrument {
            instruments.push(AmlInstrument { instrument: format!("instrument-{i}"), last_seen_at: at });
        }
        last_seen = Some(at);
    }
    out
}

/// The windows' totals as the store sums them: one per currency deposited in the window.
fn totals_of(now: i64, deposits: &Deposits) -> Vec<rules::WindowTotal> {
    let mut totals = Vec::new();
    for w in LimitWindow::ALL {
        let length = match w {
            LimitWindow::Daily => rules::time_horizons().daily_window_seconds,
            LimitWindow::Weekly => rules::time_horizons().weekly_window_seconds,
            LimitWindow::Monthly => rules::time_horizons().monthly_window_seconds,
        };
        for currency in CURRENCIES {
            let inside: Vec<(i64, i64)> =
                deposits.iter_in_currencies().filter(|(d, c)| d.at > now - length && *c == currency).map(|(d, _)| (d.amount_cents, d.at)).collect();
            if inside.is_empty() {
                continue;
            }
            totals.push(rules::WindowTotal {
                window: *w,
                spent_cents: inside.iter().fold(0i64, |s, (a, _)| s.saturating_add(*a)),
                oldest_at: inside.iter().map(|(_, at)| *at).min(),
                newest_at: inside.iter().map(|(_, at)| *at).max(),
                currency: currency.to_string(),
            });
        }
    }
    totals
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn deposit_decisions_agree(
        now in 0i64..10_000_000,
        sanctions in pick(SanctionsStatus::ALL),
        exclusions in prop::collection::vec(term(), 0..4),
        limits in prop::collection::vec(stored_limit(), 0..5),
        deposits in deposits(),
        amount_cents in cents(),
    ) {
        // From the store's totals, then with every deposit.
        let totals = totals_of(now, &deposits);
        // a due-diligence lock on some, met on others
        let (verified, aml) = (if now % 3 == 0 { KycTier::Tier2 } else { KycTier::Tier0 }, AmlStanding { withdrawals_held: false, cdd_tier: (now % 2 == 0).then_some(KycTier::Tier2) });
        let jurisdiction = if amount_cents % 2 == 0 { "GB" } else { "default" }.to_string();
        let rates = rates(now % 5 != 0);
        let mut facts = DepositFacts { now, sanctions, exclusions, limits, totals, deposits: None, amount_cents, verified, aml, jurisdiction, rates, registers: vec![] };
        prop_assert_eq!(LibraryRules.decide_deposit(&facts), component().decide_deposit(&facts));
        facts.deposits = Some(deposits);
        prop_assert_eq!(LibraryRules.decide_deposit(&facts), component().decide_deposit(&facts));
    }

    #[test]
    fn limit_decisions_agree(
        now in 0i64..10_000_000,
        requested_at in moment(),
        window in pick(LimitWindow::ALL),
        amount_cents in cents(),
        limits in prop::collection::vec(stored_limit(), 0..5),
        deposits in deposits(),
        jurisdiction in pick(&["default", "GB", "SE", "DE", "CA-ON", "unknown"]),
    ) {
        let (lib, comp) = (LibraryRules, component());
        let change = LimitChangeFacts { now, requested_at, window, amount_cents, limits: limits.clone(), jurisdiction: jurisdiction.to_string() };
        prop_assert_eq!(lib.decide_limit_change(&change), comp.decide_limit_change(&change));
        let mut view = LimitsFacts { now, limits: limits.clone(), totals: totals_of(now, &deposits), deposits: None, rates: rates(now % 5 != 0) };
        prop_assert_eq!(lib.describe_limits(&view), comp.describe_limits(&view));
        view.deposits = Some(deposits);
        prop_assert_eq!(lib.describe_limits(&view), comp.describe_limits(&view));
        for limit in limits {
            let cancel = LimitCancelFacts { now, limit };
            prop_assert_eq!(lib.decide_limit_cancel(&cancel), comp.decide_limit_cancel(&cancel));
        }
    }

    #[test]
    fn kyc_decisions_agree(
        now in moment(),
        sanctions in pick(SanctionsStatus::ALL),
        verified in pick(KycTier::ALL),
        cumulative_cents in cents(),
        amount_cents in cents(),
        same_currency in any::<bool>(),
        open in prop::option::of((pick(KycTier::ALL), pick(KycStatus::ALL), moment(), prop::option::of(moment()))),
        currency_exponent in 0u8..6,
        check in kyc_facts(),
    ) {
        let (lib, comp) = (LibraryRules, component());
        let open_check = open.map(|(target_tier, status, updated_at, token_expires_at)| OpenCheck { target_tier, status, updated_at, token_expires_at });
        let aml = AmlStanding { withdrawals_held: now % 5 == 0, cdd_tier: (now % 3 == 0).then_some(KycTier::Tier2) };
        let (currency, rate) = if now % 3 == 0 { ("KWD", (now % 2 == 0).then(|| rate("KWD", "USD", 32_500))) } else { ("USD", None) };
        let rate = rate.map(|r| AmlRate { currency_exponent: 3, ..r });
        let withdrawal = WithdrawalFacts {
            now,
            sanctions,
            verified,
            cumulative_cents,
            amount_cents,
            same_currency,
            open_check,
            currency_exponent,
            aml,
            currency: currency.into(),
            ceiling_currency: "USD".into(),
            rate,
        };
        prop_assert_eq!(lib.decide_withdrawal(&withdrawal), comp.decide_withdrawal(&withdrawal));
        let tier = TierFacts { currency: withdrawal.currency.clone(), ceiling_currency: "USD".into(), rate: withdrawal.rate.clone(), ..TierFacts::of(verified, currency_exponent) };
        prop_assert_eq!(lib.describe_tier(&tier), comp.describe_tier(&tier));
        prop_assert_eq!(lib.decide_kyc(&check), comp.decide_kyc(&check));
    }

    #[test]
    fn review_states_agree(
        items in prop::collection::vec((moment(), moment(), prop::option::of(moment()), any::<bool>()), 0..8),
    ) {
        let (lib, comp) = (LibraryRules, component());
        let items: Vec<ReviewItem> = items.into_iter().map(|(now, waiting_since, due_at, awaiting)| ReviewItem { now, waiting_since, due_at, awaiting }).collect();
        prop_assert_eq!(lib.describe_reviews(&items), comp.describe_reviews(&items));
    }

    #[test]
    fn player_messages_agree(
        window in pick(LimitWindow::ALL),
        limit_cents in cents(),
        spent in cents(),
        amount_cents in cents(),
        next_reset_at in moment(),
        currency in "[A-Z]{3}",
        currency_exponent in 0u8..6,
    ) {
        let (lib, comp) = (LibraryRules, component());
        let max_allowed_now_cents = limit_cents.saturating_sub(spent).max(0);
        let breach = DepositBreach { window, limit_cents, already_spent_cents: spent, max_allowed_now_cents, next_reset_at };
        let notices = [
            PlayerNotice::DepositHeld,
            PlayerNotice::DepositExcluded,
            PlayerNotice::WithdrawalHeld,
            PlayerNotice::WithdrawalApproved,
            PlayerNotice::DepositBreach(BreachNotice { breach, amount_cents, currency, currency_exponent }),
        ];
        for notice in &notices {
            prop_assert_eq!(lib.player_message(notice), comp.player_message(notice));
        }
    }

    #[test]
    fn exclusion_decisions_agree(
        now in moment(),
        duration in pick(ExclusionDuration::ALL),
        existing in prop::collection::vec((pick(ExclusionDuration::ALL), prop::option::of(0i64..4_000_000_000)), 0..5),
        terms in prop::collection::vec(term(), 0..8),
        entries in prop::collection::vec(prop::collection::vec(term(), 0..3), 0..4),
    ) {
        let (lib, comp) = (LibraryRules, component());
        let existing = existing.into_iter().map(|(duration, expires_at)| UserExclusion { duration, expires_at }).collect();
        let register = ExclusionFacts { now, duration, existing };
        prop_assert_eq!(lib.decide_exclusion(&register), comp.decide_exclusion(&register));
        let status = ExclusionStatusFacts { now, exclusions: terms };
        prop_assert_eq!(lib.describe_exclusions(&status), comp.describe_exclusions(&status));
        let import = RegulatorImportFacts { now, entries: entries.into_iter().map(|existing_regulator| RegulatorEntry { existing_regulator }).collect() };
        prop_assert_eq!(lib.decide_regulator_import(&import), comp.decide_regulator_import(&import));
    }

    #[test]
    fn sanctions_decisions_agree(
        now in moment(),
        environment in pick(Environment::ALL),
        first in prop_oneof![Just("SanctionedSam".to_string()), "Maybe[a-z]{0,5}", ".{0,12}"],
        last in prop_oneof![Just("TestHit".to_string()), ".{0,12}"],
        current in prop::option::of(pick(SanctionsStatus::ALL)),
        case_status in pick(CaseStatus::ALL),
        action in pick(ReviewAction::ALL),
        candidates in prop::collection::vec(candidate(), 0..6),
        hit_threshold in prop::option::of(0.5f64..1.0),
        (pep, adverse_media, due_diligence_open) in (any::<bool>(), any::<bool>(), any::<bool>()),
        case_kind in pick(rules::CaseKind::ALL),
        dismissed_fingerprint in prop::option::of(prop_oneof![Just("fp-1".to_string()), Just("fp-2".to_string())]),
    ) {
        let (lib, comp) = (LibraryRules, component());
        let screening = ScreeningFacts {
            now, environment, first_name: first.clone(), last_name: last.clone(), date_of_birth: "1990-01-01".into(), nationality: "GB".into(), current,
            candidates: candidates.clone(), hit_threshold, sources: vec![ScreenedSource { source: "ofac-sdn".into(), version: "2026-11-01".into() }],
            scope: rules::ScreeningScope { pep, adverse_media }, due_diligence_open,
            dismissed: dismissed_fingerprint
                .map(|fingerprint| vec![rules::DismissedMatch { source: "test".into(), entity_id: "e-1".into(), fingerprint }])
                .unwrap_or_default(),
        };
        prop_assert_eq!(lib.decide_screening(&screening), comp.decide_screening(&screening));
        let query = NameQuery { name: format!("{first} {last}"), date_of_birth: "1990-01-01".into(), nationality: "GB".into() };
        prop_assert_eq!(lib.score_names(&query, &candidates), comp.score_names(&query, &candidates));
        prop_assert_eq!(lib.score_names_ofac(&query.name, &candidates), comp.score_names_ofac(&query.name, &candidates));
        let names: Vec<String> = candidates.iter().flat_map(|c| c.names.clone()).collect();
        prop_assert_eq!(lib.index_keys(&names), comp.index_keys(&names));
        let status = current.unwrap_or(SanctionsStatus::Clear);
        prop_assert_eq!(lib.describe_sanctions(status), comp.describe_sanctions(status));
        let review = CaseReviewFacts { case_status, action, case_kind };
        prop_assert_eq!(lib.decide_case_review(&review), comp.decide_case_review(&review));
    }

    #[test]
    fn due_work_agrees(
        limits in prop::collection::vec((moment(), pick(LimitStatus::ALL), moment()), 0..4),
        exclusions in prop::collection::vec((moment(), prop::option::of(moment()), prop::collection::vec(term(), 0..3)), 0..4),
        checks in prop::collection::vec(kyc_facts(), 0..4),
        users in prop::collection::vec((moment(), pick(SanctionsStatus::ALL), moment()), 0..4),
    ) {
        let facts = DueFacts {
            limits: limits.into_iter().map(|(now, status, effective_from)| DueLimit { now, status, effective_from }).collect(),
            exclusions: exclusions.into_iter().map(|(now, expires_at, others)| DueExclusion { now, expires_at, others }).collect(),
            checks,
            users: users.into_iter().map(|(now, status, last_screened_at)| DueUser { now, status, last_screened_at }).collect(),
        };
        prop_assert_eq!(LibraryRules.due_now(&facts), component().due_now(&facts));
    }

    #[test]
    fn aml_decisions_agree_on_event_streams(
        jurisdiction in prop::sample::select(vec!["default", "GB", "CA-ON", "DE"]),
        verified in pick(KycTier::ALL),
        steps in prop::collection::vec(aml_step(), 1..24),
    ) {
        let (lib, comp) = (LibraryRules, component());
        for outcome in AmlReviewOutcome::ALL {
            let review = AmlReviewFacts { outcome: *outcome, standing: AmlStanding { withdrawals_held: steps.len() % 2 == 0, cdd_tier: Some(verified) } };
            prop_assert_eq!(lib.decide_aml_review(&review), comp.decide_aml_review(&review));
        }
        for facts in aml_stream(jurisdiction, verified, &steps) {
            let decided = lib.decide_aml(&facts);
            prop_assert_eq!(&decided, &comp.decide_aml(&facts));
            if let Ok(Ok(decision)) = decided {
                let replayed = replay(comp, Operation::Aml, &canonical(&facts)).unwrap();
                prop_assert_eq!(canonical(&Ok::<_, RuleError>(decision)), replayed);
            }
        }
    }

    #[test]
    fn a_recorded_decision_replays_identically(
        now in 0i64..10_000_000,
        exclusions in prop::collection::vec(term(), 0..4),
        limits in prop::collection::vec(stored_limit(), 0..5),
        deposits in deposits(),
        amount_cents in cents(),
    ) {
        let facts = DepositFacts { now, sanctions: SanctionsStatus::Clear, exclusions, limits, totals: totals_of(now, &deposits), deposits: Some(deposits), amount_cents, verified: KycTier::Tier0, aml: AmlStanding::default(), jurisdiction: "default".into(), rates: rates(true), registers: vec![] };
        let recorded = canonical(&LibraryRules.decide_deposit(&facts).unwrap());
        let replayed = replay(component(), Operation::Deposit, &canonical(&facts)).unwrap();
        prop_assert_eq!(recorded, replayed);
    }
}

#[test]
fn the_component_reports_the_library_version_horizons_and_its_own_hash() {
    let identity = component().identity();
    assert_eq!(identity.version, rules::VERSION);
    assert_eq!(identity.component_sha256.len(), 64);
    assert_eq!(component().horizons(), LibraryRules.horizons());
    assert_eq!(component().jurisdictions(), LibraryRules.jurisdictions());
}

#[test]
fn the_component_imports_nothing() {
    assert_eq!(component().imports(), Vec::<String>::new());
}

#[test]
fn a_file_that_is_not_a_component_is_refused() {
    assert!(ComponentRules::from_bytes(b"\0asm not really").is_err());
}

#[test]
fn replay_refuses_an_input_of_another_shape() {
    assert!(replay(component(), Operation::Deposit, r#"{"now": 1}"#).is_err());
    assert!(replay(component(), Operation::Tier, r#""tier_9""#).is_err());
    assert!(replay(component(), Operation::Tier, r#""tier_2""#).is_ok());
}
