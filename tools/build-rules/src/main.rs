//! Builds `rules-component` for `wasm32-unknown-unknown`, turns the core
//! module into a component with `wit-component`, checks that it imports
//! nothing, writes it to `target/rules/cgw_rules.wasm` (or `--out PATH`) and
//! prints its SHA-256, which is the rules version auditors verify.
//!
//! Usage: `build-rules [--workspace DIR] [--out PATH] [--features LIST]` (features
//! build test doubles only, such as `runaway-for-tests`).
//!
//! Reproducibility: the toolchain is pinned by `rust-toolchain.toml`, the
//! dependencies by `Cargo.lock`, and local paths are remapped out of the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use sha2::{Digest, Sha256};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("build-rules: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let workspace = match args.iter().position(|a| a == "--workspace") {
        Some(i) => PathBuf::from(args.get(i + 1).ok_or("--workspace needs a path")?),
        None => workspace_root()?,
    };
    let out = match args.iter().position(|a| a == "--out") {
        Some(i) => PathBuf::from(args.get(i + 1).ok_or("--out needs a path")?),
        None => workspace.join("target/rules/cgw_rules.wasm"),
    };
    // Only for test doubles (`runaway-for-tests`); the audited component is built without features.
    let features = args.iter().position(|a| a == "--features").map(|i| args.get(i + 1).cloned().ok_or("--features needs a list")).transpose()?;
    // For profiling only (`CGW_RULES_PERFMAP`): the guest's function names kept; another build, never the audited one.
    let symbols = args.iter().any(|a| a == "--keep-symbols");
    let core = build_core_module(&workspace, features.as_deref(), symbols)?;
    let component = componentize(&core)?;
    check_no_imports(&component)?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&out, &component).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let digest = hex::encode(Sha256::digest(&component));
    let sum_file = out.with_extension("wasm.sha256");
    std::fs::write(&sum_file, format!("{digest}  cgw_rules.wasm\n")).map_err(|e| format!("cannot write {}: {e}", sum_file.display()))?;
    eprintln!("wrote {} ({} bytes)", out.display(), component.len());
    println!("{digest}");
    Ok(())
}

fn workspace_root() -> Result<PathBuf, String> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().and_then(Path::parent).map(Path::to_path_buf).ok_or_else(|| "cannot find the workspace root".to_string())
}

fn build_core_module(workspace: &Path, features: Option<&str>, symbols: bool) -> Result<Vec<u8>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let cargo_home = std::env::var("CARGO_HOME").ok().or_else(|| std::env::var("HOME").ok().map(|h| format!("{h}/.cargo"))).unwrap_or_default();
    let rustup_home = std::env::var("RUSTUP_HOME").ok().or_else(|| std::env::var("HOME").ok().map(|h| format!("{h}/.rustup"))).unwrap_or_default();
    let rustflags = [
        format!("--remap-path-prefix={}=/workspace", workspace.display()),
        format!("--remap-path-prefix={cargo_home}=/cargo"),
        format!("--remap-path-prefix={rustup_home}=/rustup"),
        "-Cdebuginfo=0".to_string(),
        if symbols { "-Cstrip=none" } else { "-Cstrip=symbols" }.to_string(),
    ]
    .join("\x1f");
    let target_dir = workspace.join(if symbols { "target/rules-build-symbols" } else { "target/rules-build" });
    let mut command = Command::new(cargo);
    command.current_dir(workspace).args(["build", "--locked", "--release", "-p", "rules-component", "--target", "wasm32-unknown-unknown"]);
    if let Some(features) = features {
        command.args(["--features", features]);
    }
    let status = command
        .arg("--target-dir")
        .arg(&target_dir)
        .env("CARGO_ENCODED_RUSTFLAGS", rustflags)
        .env_remove("RUSTFLAGS")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3")
        .env("CARGO_INCREMENTAL", "0")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build of rules-component failed: {status}"));
    }
    let wasm = target_dir.join("wasm32-unknown-unknown/release/rules_component.wasm");
    std::fs::read(&wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))
}

fn componentize(core: &[u8]) -> Result<Vec<u8>, String> {
    wit_component::ComponentEncoder::default().module(core).and_then(|e| e.validate(true).encode()).map_err(|e| format!("componentize failed: {e:#}"))
}

/// The rules may not reach the outside world: no WASI, no clock, no randomness.
fn check_no_imports(component: &[u8]) -> Result<(), String> {
    let imports = component_imports(component)?;
    if imports.is_empty() {
        Ok(())
    } else {
        Err(format!("the rules component must import nothing, found: {}", imports.join(", ")))
    }
}

fn component_imports(component: &[u8]) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    for payload in wasmparser::Parser::new(0).parse_all(component) {
        match payload.map_err(|e| format!("invalid component: {e}"))? {
            wasmparser::Payload::ModuleSection { .. } | wasmparser::Payload::ComponentSection { .. } => depth += 1,
            wasmparser::Payload::End(_) => depth = depth.saturating_sub(1),
            wasmparser::Payload::ComponentImportSection(reader) if depth == 0 => {
                for import in reader {
                    let import = import.map_err(|e| format!("invalid import: {e}"))?;
                    names.push(import.name.name.to_string());
                }
            }
            _ => {}
        }
    }
    Ok(names)
}
