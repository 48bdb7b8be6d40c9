//! The cost of sealed webhook secrets per delivery: opening the stored
//! secret (AES-256-GCM) beside signing the delivery (HMAC-SHA256), which every
//! delivery did before. `cargo bench -p host-native --bench sealing`.

use criterion::{criterion_group, criterion_main, Criterion};
use gateway::sealing::SecretKeys;

fn sealing(c: &mut Criterion) {
    let keys = SecretKeys::new([5; 32], vec![]);
    let secret = gateway::signing::new_secret(&[7; 32]);
    let sealed = keys.seal(&secret, "wh_0123456789abcdef01234567", &[9; 12]);
    assert!(gateway::signing::headers(&[&secret], "evt_1", 1, b"x").iter().any(|(n, v)| n == "webhook-signature" && v.starts_with("v1,")));
    let body = vec![b'x'; 600];
    c.bench_function("open a sealed secret", |b| b.iter(|| keys.open(std::hint::black_box(&sealed), "wh_0123456789abcdef01234567")));
    c.bench_function("sign a 600-byte delivery", |b| {
        b.iter(|| gateway::signing::headers(&[&secret], "evt_1", 1_800_000_000, std::hint::black_box(&body)))
    });
}

criterion_group!(benches, sealing);
criterion_main!(benches);
