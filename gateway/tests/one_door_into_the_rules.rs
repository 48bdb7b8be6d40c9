//! Keeps "every rule runs inside the component" true by construction: the
//! gateway and both hosts link the rules' vocabulary (`rules-model`) and never
//! the rules library (`rules`), so no function of the logic is nameable from
//! their code, on any target. Read from Cargo's own resolved graph of the
//! workspace (normal and build dependencies; dev-dependencies serve tests).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value as Json;

/// Each package's name, by id, and each package's normal and build dependencies, by id.
fn graph() -> (BTreeMap<String, String>, BTreeMap<String, Vec<String>>) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    let out = Command::new(cargo).args(["metadata", "--format-version", "1", "--offline", "--manifest-path", root]).output().unwrap();
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: Json = serde_json::from_slice(&out.stdout).unwrap();
    let names = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), p["name"].as_str().unwrap().to_string()))
        .collect();
    let mut deps = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let linked = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null() || k["kind"] == "build"))
            .map(|d| d["pkg"].as_str().unwrap().to_string())
            .collect();
        deps.insert(node["id"].as_str().unwrap().to_string(), linked);
    }
    (names, deps)
}

/// The names of every package `name` links, itself included.
fn linked_by(name: &str) -> BTreeSet<String> {
    let (names, deps) = graph();
    let start = names.iter().find(|(_, n)| n.as_str() == name).map(|(id, _)| id.clone()).unwrap_or_else(|| panic!("no package {name}"));
    let (mut seen, mut todo) = (BTreeSet::new(), vec![start]);
    while let Some(id) = todo.pop() {
        if seen.insert(id.clone()) {
            todo.extend(deps.get(&id).cloned().unwrap_or_default());
        }
    }
    seen.iter().map(|id| names[id].clone()).collect()
}

#[test]
fn neither_the_gateway_nor_a_host_links_the_rules_library() {
    for package in ["gateway", "host-native", "host-edge", "rules-model"] {
        let linked = linked_by(package);
        assert!(!linked.contains("rules"), "{package} links the rules library: a rule could run outside the component");
        // the twin: the check reads real edges (each links the vocabulary)
        assert!(linked.contains("rules-model"), "{package} does not link rules-model");
    }
}

#[test]
fn the_component_links_the_library_so_the_check_can_see_it() {
    for package in ["rules-component", "rules-library"] {
        assert!(linked_by(package).contains("rules"), "{package} should link the rules library");
    }
}
