//! The cost of one screening's decision, the rules library called natively
//! against the rules component: OFAC's SDN copy, each query's candidates
//! picked the way the store picks them (the entries sharing most lookup keys,
//! at most 64), and the worst case, the 64 entries with the most aliases.
//!
//! `cargo bench -p host-native --bench scoring` (`CGW_BENCH_RULES=PATH`: another component).

use std::collections::HashMap;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gateway::lists::parse::{ofac, ListEntry};
use gateway::ports::Rules;
use host_native::rules_engine::ComponentRules;
use rules::{Environment, ListCandidate, ScreeningFacts};
use rules_library::LibraryRules;

const CANDIDATES: usize = 64;

fn candidate(e: &ListEntry) -> ListCandidate {
    ListCandidate {
        source: "ofac".into(),
        entity_id: e.entity_id.clone(),
        kind: e.kind,
        names: e.names.clone(),
        dates_of_birth: e.dates_of_birth.clone(),
        nationalities: e.nationalities.clone(),
        topic: e.topic,
        fingerprint: String::new(),
    }
}

fn facts(first: &str, last: &str, dob: &str, nationality: &str, candidates: Vec<ListCandidate>) -> ScreeningFacts {
    ScreeningFacts {
        now: 1_700_000_000,
        environment: Environment::Production,
        first_name: first.into(),
        last_name: last.into(),
        date_of_birth: dob.into(),
        nationality: nationality.into(),
        current: None,
        candidates,
        hit_threshold: None,
        sources: Vec::new(),
        scope: rules::ScreeningScope::default(),
        due_diligence_open: false,
        dismissed: Vec::new(),
    }
}

/// The store's pick: the entries sharing most of the query's keys.
fn picked(index: &HashMap<String, Vec<usize>>, entries: &[ListEntry], name: &str) -> Vec<ListCandidate> {
    let mut shared: HashMap<usize, usize> = HashMap::new();
    for key in rules::query_keys(name) {
        for &e in index.get(&key).into_iter().flatten() {
            *shared.entry(e).or_default() += 1;
        }
    }
    let mut ranked: Vec<(usize, usize)> = shared.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.into_iter().take(CANDIDATES).map(|(e, _)| candidate(&entries[e])).collect()
}

fn bench(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");
    let read = |f: &str| std::fs::read(format!("{dir}/{f}")).unwrap_or_default();
    let entries = match ofac(&read("sdn.csv"), Some(&read("alt.csv"))) {
        Ok(e) => e,
        Err(e) => return eprintln!("cannot read the OFAC copy: {e}"),
    };
    let component = match std::env::var_os("CGW_BENCH_RULES").map_or_else(ComponentRules::embedded, |p| ComponentRules::load(p.as_ref())) {
        Ok(c) => c,
        Err(e) => return eprintln!("cannot load the rules component: {e}"),
    };
    let mut index: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        let mut keys: Vec<String> = e.names.iter().flat_map(|n| rules::index_keys(n)).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            index.entry(k).or_default().push(i);
        }
    }
    let mut heavy: Vec<&ListEntry> = entries.iter().filter(|e| e.kind == rules::EntryKind::Individual).collect();
    heavy.sort_by_key(|e| std::cmp::Reverse(e.names.len()));
    let heavy: Vec<ListCandidate> = heavy.into_iter().take(CANDIDATES).map(candidate).collect();
    let queries = [
        ("typical_listed_added_name", facts("Arkady Romanovich", "Rotenberg", "1951-12-15", "RU", Vec::new())),
        ("typical_arabic", facts("Mohamed Kamal", "Hassan", "1980-03-02", "EG", Vec::new())),
        ("typical_ordinary", facts("Oliver", "Smith", "1990-04-01", "GB", Vec::new())),
        ("typical_korean", facts("Kim", "Jongun", "1984-01-08", "KP", Vec::new())),
    ];
    let mut group = c.benchmark_group("decide_screening");
    for (label, mut f) in queries {
        f.candidates = picked(&index, &entries, &format!("{} {}", f.first_name, f.last_name));
        group.bench_with_input(BenchmarkId::new("native", label), &f, |b, f| b.iter(|| LibraryRules.decide_screening(f)));
        group.bench_with_input(BenchmarkId::new("component", label), &f, |b, f| b.iter(|| component.decide_screening(f)));
    }
    let f = facts("Mohammed Abdullah", "Al Hassan", "1975-06-01", "IQ", heavy);
    group.bench_with_input(BenchmarkId::new("native", "most_aliases"), &f, |b, f| b.iter(|| LibraryRules.decide_screening(f)));
    group.bench_with_input(BenchmarkId::new("component", "most_aliases"), &f, |b, f| b.iter(|| component.decide_screening(f)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
