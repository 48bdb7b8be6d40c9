//! The edge-host runner: the same cases against the Worker under the local
//! Workers runtime (`wrangler dev`, local D1, Durable Objects and KV),
//! started through `scripts/edge.sh dev` on a free port with fresh state.
//! It runs when `CGW_EDGE_CONFORMANCE=1` (the test command sets it); the
//! edge tools take minutes to build on a new machine.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use conformance::harness::{free_port, skip_list, wait_healthy, Server};
use conformance::{cases, runner, Env};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/edge.sh")
}

fn admin_key(state: &Path, environment: &str) -> Result<String, String> {
    let out = Command::new(script())
        .args(["admin-key", "--environment", environment, "--state"])
        .arg(state)
        .output()
        .map_err(|e| format!("cannot run scripts/edge.sh: {e}"))?;
    if !out.status.success() {
        return Err(format!("edge.sh admin-key failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn start() -> Result<(Env, Server), String> {
    let state = std::env::temp_dir().join(format!("cgw-edge-conformance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).map_err(|e| e.to_string())?;
    // Builds the worker (quiet on success), then writes the keys into the local D1.
    let sandbox = admin_key(&state, "sandbox")?;
    let production = admin_key(&state, "production")?;
    let port = free_port()?;
    let mut command = Command::new(script());
    command.args(["dev", "--port", &port.to_string(), "--state"]).arg(&state).stdout(Stdio::null()).stderr(Stdio::inherit());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let server = Server(command.spawn().map_err(|e| format!("cannot start scripts/edge.sh dev: {e}"))?);
    let env = Env::new(&format!("http://127.0.0.1:{port}"), &sandbox, &production);
    wait_healthy(&env, Duration::from_secs(120))?;
    Ok((env, server))
}

fn main() -> ExitCode {
    if std::env::var("CGW_EDGE_CONFORMANCE").as_deref() != Ok("1") {
        println!("edge conformance skipped: set CGW_EDGE_CONFORMANCE=1 (scripts/test.sh does)");
        return ExitCode::SUCCESS;
    }
    let skip = skip_list(include_str!("../skip/edge.txt"));
    let (env, server) = match start() {
        Ok(started) => started,
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ok = runner::run(&env, cases::ALL, &skip, 8);
    drop(server);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
