//! Per-decision cost of the deposit gate, the decision every `limits/check`
//! makes: the rules library called natively against the rules component in
//! a warm wasmtime instance.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gateway::ports::Rules;
use host_native::rules_engine::ComponentRules;
use rules::{AmlStanding, DepositFacts, Deposits, KycTier, LimitStatus, LimitWindow, SanctionsStatus, StoredLimit};
use rules_library::LibraryRules;

fn facts(limits: usize, deposits: usize) -> DepositFacts {
    let limits = (0..limits)
        .map(|i| StoredLimit {
            window: LimitWindow::ALL[i % 3],
            amount_cents: 10_000_000,
            same_currency: true,
            status: LimitStatus::Active,
            effective_from: 0,
            currency: "USD".into(),
        })
        .collect();
    let deposits = Deposits {
        amount_cents: (0..deposits).map(|i| 1_000 + i as i64).collect(),
        at: (0..deposits).map(|i| 10_000_000 - (i as i64 * 2_500)).collect(),
        currency: (0..deposits).map(|i| if i % 4 == 0 { "EUR" } else { "USD" }.to_string()).collect(),
    };
    DepositFacts {
        now: 10_000_000,
        sanctions: SanctionsStatus::Clear,
        exclusions: Vec::new(),
        limits,
        totals: Vec::new(),
        deposits: Some(deposits),
        amount_cents: 500,
        verified: KycTier::Tier0,
        aml: AmlStanding::default(),
        jurisdiction: "default".into(),
        rates: vec![rules::AmlRate {
            version: "bench".into(),
            date: "2027-01-15".into(),
            currency: "EUR".into(),
            currency_exponent: 2,
            per_unit_of: "USD".into(),
            per_unit_exponent: 2,
            rate_units: 10_837,
            rate_scale: 4,
        }],
        registers: vec![],
    }
}

fn bench(c: &mut Criterion) {
    // CGW_BENCH_RULES=PATH: another component, such as one built with `build-rules --keep-symbols`
    let component = match std::env::var_os("CGW_BENCH_RULES").map_or_else(ComponentRules::embedded, |path| ComponentRules::load(path.as_ref())) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot load the rules component: {e}");
            return;
        }
    };
    let mut group = c.benchmark_group("decide_deposit");
    for (limits, deposits) in [(1, 5), (3, 50), (3, 1_000)] {
        let f = facts(limits, deposits);
        let label = format!("{limits}x{deposits}");
        group.bench_with_input(BenchmarkId::new("native", &label), &(), |b, ()| b.iter(|| LibraryRules.decide_deposit(&f)));
        group.bench_with_input(BenchmarkId::new("component", &label), &(), |b, ()| b.iter(|| component.decide_deposit(&f)));
    }
    group.finish();
    let mut fixed = c.benchmark_group("fixed_cost");
    fixed.bench_function("native/describe_tier", |b| b.iter(|| LibraryRules.describe_tier(&rules::TierFacts::of(rules::KycTier::Tier2, 2))));
    fixed.bench_function("component/describe_tier", |b| b.iter(|| component.describe_tier(&rules::TierFacts::of(rules::KycTier::Tier2, 2))));
    fixed.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
