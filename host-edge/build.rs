//! Records the SHA-256 of the rules component the edge transpiles, so that
//! `GET /v1/rules` reports the very bytes the native host embeds.
use sha2::{Digest, Sha256};

fn main() {
    let path = "../rules/cgw_rules.wasm";
    println!("cargo:rerun-if-changed={path}");
    match std::fs::read(path) {
        Ok(bytes) => println!("cargo:rustc-env=CGW_RULES_SHA256={}", hex::encode(Sha256::digest(bytes))),
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        }
    }
}
