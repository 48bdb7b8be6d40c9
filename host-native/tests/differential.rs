//! Differential test: the rules library called natively and the rules
//! component run in wasmtime must decide identically on random inputs.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::sync::OnceLock;

use gateway::ports::{LibraryRules, Rules};
use host_native::rules_engine::ComponentRules;
use proptest::prelude::*;
use rules::{Deposit, DepositLimit, ExclusionDuration, ExclusionTerm, KycTier, LimitWindow};

fn component() -> &'static ComponentRules {
    static RULES: OnceLock<ComponentRules> = OnceLock::new();
    RULES.get_or_init(|| {
        let path =
            host_native::default_rules_paths().into_iter().find(|p| p.exists()).expect("build the rules component first: cargo run -p build-rules");
        ComponentRules::load(&path).expect("load the rules component")
    })
}

fn tier() -> impl Strategy<Value = KycTier> {
    prop::sample::select(KycTier::ALL.to_vec())
}

fn window() -> impl Strategy<Value = LimitWindow> {
    prop::sample::select(LimitWindow::ALL.to_vec())
}

fn duration() -> impl Strategy<Value = ExclusionDuration> {
    prop::sample::select(ExclusionDuration::ALL.to_vec())
}

/// Amounts clustered on the rules' edges as well as anywhere in range.
fn cents() -> impl Strategy<Value = i64> {
    prop_oneof![
        prop::sample::select(vec![
            -1,
            0,
            1,
            20_000,
            20_001,
            200_000,
            200_001,
            2_000_000,
            2_000_001,
            10_000_000,
            10_000_001,
            rules::MAX_AMOUNT_CENTS,
            rules::MAX_AMOUNT_CENTS + 1,
            i64::MAX,
            i64::MIN
        ]),
        -1_000i64..20_000_000,
        any::<i64>(),
    ]
}

fn term() -> impl Strategy<Value = ExclusionTerm> {
    prop::option::of(0i64..4_000_000_000).prop_map(|expires_at| ExclusionTerm { expires_at })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn kyc_rules_agree(verified in tier(), cumulative in cents(), amount in cents()) {
        let (lib, comp) = (LibraryRules, component());
        prop_assert_eq!(lib.tier_for_cumulative(cumulative), comp.tier_for_cumulative(cumulative));
        prop_assert_eq!(lib.bounds_of_tier(verified), comp.bounds_of_tier(verified));
        prop_assert_eq!(lib.assess_withdrawal(verified, cumulative, amount), comp.assess_withdrawal(verified, cumulative, amount));
    }

    #[test]
    fn cooloff_rules_agree(current in prop::option::of(cents()), requested in cents()) {
        prop_assert_eq!(LibraryRules.limit_cooloff(current, requested), component().limit_cooloff(current, requested));
    }

    #[test]
    fn window_checks_agree(
        now in 0i64..10_000_000,
        limits in prop::collection::vec((window(), 0i64..100_000), 0..4),
        deposits in prop::collection::vec((1i64..50_000, 0i64..10_000_000), 0..60),
        amount in cents(),
        w in window(),
    ) {
        let limits: Vec<DepositLimit> = limits.into_iter().map(|(window, amount_cents)| DepositLimit { window, amount_cents }).collect();
        let deposits: Vec<Deposit> = deposits.into_iter().map(|(amount_cents, at)| Deposit { amount_cents, at }).collect();
        let (lib, comp) = (LibraryRules, component());
        prop_assert_eq!(lib.check_deposit(now, &limits, &deposits, amount), comp.check_deposit(now, &limits, &deposits, amount));
        prop_assert_eq!(lib.window_usage_at(now, w, &deposits), comp.window_usage_at(now, w, &deposits));
        prop_assert_eq!(lib.window_seconds(w), comp.window_seconds(w));
    }

    #[test]
    fn exclusion_rules_agree(d in duration(), from in prop_oneof![0i64..4_000_000_000, any::<i64>()], now in 0i64..4_000_000_000, terms in prop::collection::vec(term(), 0..8), a in term(), b in term()) {
        let (lib, comp) = (LibraryRules, component());
        prop_assert_eq!(lib.exclusion_expiry(d, from), comp.exclusion_expiry(d, from));
        prop_assert_eq!(lib.most_restrictive_exclusion(now, &terms), comp.most_restrictive_exclusion(now, &terms));
        prop_assert_eq!(lib.exclusion_lengthens(a, b), comp.exclusion_lengthens(a, b));
    }

    #[test]
    fn stub_vendors_agree(first in prop_oneof![Just("SanctionedSam".to_string()), "Maybe[a-z]{0,5}", ".{0,12}"], last in prop_oneof![Just("TestHit".to_string()), ".{0,12}"], id in "[a-z]{0,4}(autoapprove|autoreject)?[a-z]{0,4}") {
        let (lib, comp) = (LibraryRules, component());
        prop_assert_eq!(lib.stub_screen(&first, &last), comp.stub_screen(&first, &last));
        prop_assert_eq!(lib.stub_kyc(&id), comp.stub_kyc(&id));
    }
}

#[test]
fn the_component_reports_the_library_version_and_its_own_hash() {
    let identity = component().identity();
    assert_eq!(identity.version, rules::VERSION);
    assert_eq!(identity.component_sha256.len(), 64);
}

#[test]
fn the_component_imports_nothing() {
    assert_eq!(component().imports(), Vec::<String>::new());
}

#[test]
fn a_file_that_is_not_a_component_is_refused() {
    assert!(ComponentRules::from_bytes(b"\0asm not really").is_err());
}
