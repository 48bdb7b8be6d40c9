//! Per-decision cost of the rolling-window check: the rules library called
//! natively against the rules component in a warm wasmtime instance.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gateway::ports::{LibraryRules, Rules};
use host_native::rules_engine::ComponentRules;
use rules::{Deposit, DepositLimit, LimitWindow};

fn inputs(limits: usize, deposits: usize) -> (Vec<DepositLimit>, Vec<Deposit>) {
    let windows = [LimitWindow::Daily, LimitWindow::Weekly, LimitWindow::Monthly];
    let limits = (0..limits).map(|i| DepositLimit { window: windows[i % 3], amount_cents: 10_000_000 }).collect();
    let deposits = (0..deposits).map(|i| Deposit { amount_cents: 1_000 + i as i64, at: 10_000_000 - (i as i64 * 2_500) }).collect();
    (limits, deposits)
}

fn bench(c: &mut Criterion) {
    let Some(path) = host_native::default_rules_paths().into_iter().find(|p| p.exists()) else {
        eprintln!("build the rules component first: cargo run -p build-rules");
        return;
    };
    let component = match ComponentRules::load(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot load the rules component: {e}");
            return;
        }
    };
    let mut group = c.benchmark_group("check_deposit");
    for (limits, deposits) in [(1, 5), (3, 50), (3, 1_000)] {
        let (l, d) = inputs(limits, deposits);
        let label = format!("{limits}x{deposits}");
        group.bench_with_input(BenchmarkId::new("native", &label), &(), |b, ()| b.iter(|| LibraryRules.check_deposit(10_000_000, &l, &d, 500)));
        group.bench_with_input(BenchmarkId::new("component", &label), &(), |b, ()| b.iter(|| component.check_deposit(10_000_000, &l, &d, 500)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
