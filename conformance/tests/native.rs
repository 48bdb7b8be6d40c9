//! The native-host runner. With `CGW_BASE_URL`, `CGW_ADMIN_KEY_SANDBOX` and
//! `CGW_ADMIN_KEY_PRODUCTION` it runs against a server that is already up;
//! otherwise it starts `compliance-gateway` itself on a free port, with the
//! store named by `CGW_DATABASE_URL` (default: a fresh SQLite file);
//! `CGW_HOSTS=N` starts N servers on that store and sends each request to
//! the next, so that the suite checks they behave as one service.

use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use conformance::harness::{free_port, skip_list, wait_healthy, Server};
use conformance::{cases, runner, Env};

fn binary() -> PathBuf {
    if let Ok(path) = std::env::var("CGW_BINARY") {
        return PathBuf::from(path);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    ["target/release/compliance-gateway", "target/debug/compliance-gateway"]
        .iter()
        .map(|p| root.join(p))
        .find(|p| p.exists())
        .unwrap_or_else(|| root.join("target/release/compliance-gateway"))
}

fn admin_key(bin: &PathBuf, database: &str, environment: &str) -> Result<String, String> {
    let out = Command::new(bin)
        .args(["admin-key", "create", "--environment", environment, "--database", database])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!("admin-key create failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn start() -> Result<(Env, Vec<Server>), String> {
    if let (Ok(url), Ok(sandbox), Ok(production)) =
        (std::env::var("CGW_BASE_URL"), std::env::var("CGW_ADMIN_KEY_SANDBOX"), std::env::var("CGW_ADMIN_KEY_PRODUCTION"))
    {
        return Ok((Env::new(&url, &sandbox, &production), Vec::new()));
    }
    let bin = binary();
    let database = match std::env::var("CGW_DATABASE_URL") {
        Ok(url) => url,
        Err(_) => {
            let dir = std::env::temp_dir().join(format!("cgw-conformance-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let file = dir.join("gateway.db");
            conformance::runner::scan_store_files(vec![file.clone(), dir.join("gateway.db-wal")]);
            format!("sqlite://{}", file.display())
        }
    };
    let sandbox = admin_key(&bin, &database, "sandbox")?;
    let production = admin_key(&bin, &database, "production")?;
    // CGW_HOSTS=N starts N servers on the one store, and the cases send each
    // request to the next: several hosts must behave as one service.
    let hosts: usize = std::env::var("CGW_HOSTS").ok().and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let mut servers = Vec::new();
    let mut urls = Vec::new();
    // One key for every host: a shared database refuses to start without it.
    let key_file = std::env::temp_dir().join(format!("cgw-conformance-{}.key", std::process::id()));
    if !key_file.exists() {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| e.to_string())?;
        std::fs::write(&key_file, base64::Engine::encode(&base64::engine::general_purpose::STANDARD, key)).map_err(|e| e.to_string())?;
    }
    // the team's identity provider, on loopback, for the sign-on cases
    let idp = std::sync::Arc::new(conformance::idp::Idp::start()?);
    let idp_args = idp.serve_args(&std::env::temp_dir().join(format!("cgw-conformance-{}.oidc-secret", std::process::id())))?;
    for _ in 0..hosts {
        let port = free_port()?;
        let mut command = Command::new(&bin);
        // CGW_SERVE_ARGS: further `serve` arguments; CGW_SERVE_LOG: a file for the hosts' request log
        let extra = std::env::var("CGW_SERVE_ARGS").unwrap_or_default();
        let log = match std::env::var("CGW_SERVE_LOG") {
            Ok(path) => Stdio::from(std::fs::OpenOptions::new().create(true).append(true).open(&path).map_err(|e| format!("{path}: {e}"))?),
            Err(_) => Stdio::null(),
        };
        command
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", &database, "--log-format", "json", "--secret-key-file"])
            .arg(&key_file)
            .args(extra.split_whitespace())
            .args(&idp_args)
            .stdout(log)
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        servers.push(Server(command.spawn().map_err(|e| format!("cannot start {}: {e}", bin.display()))?));
        urls.push(format!("http://127.0.0.1:{port}"));
        wait_healthy(&Env::new(&urls[urls.len() - 1], &sandbox, &production), Duration::from_secs(30))?;
    }
    let mut env = Env::new(&urls[0], &sandbox, &production);
    env.other_hosts = urls[1..].to_vec();
    env.list_import = Some(list_import(bin.clone(), database.clone()));
    env.console_user = Some(console_user(bin, database, key_file));
    env.idp = Some(idp);
    if hosts > 1 {
        println!("{hosts} hosts on one store: {}", urls.join(", "));
    }
    Ok((env, servers))
}

/// `compliance-gateway console-user create … --database DB`, with the hosts' sealing key.
fn console_user(bin: PathBuf, database: String, key_file: PathBuf) -> conformance::client::ConsoleUser {
    Box::new(move |environment: &str, email: &str, role: &str| {
        let out = Command::new(&bin)
            .args(["console-user", "create", "--email", email, "--role", role, "--environment", environment, "--database", &database])
            .arg("--secret-key-file")
            .arg(&key_file)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
        if !out.status.success() {
            return Err(format!("console-user create failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr)));
        }
        serde_json::from_slice(&out.stdout).map_err(|e| format!("console-user create printed no JSON: {e}"))
    })
}

/// `compliance-gateway lists import … --database DB`, beside the running server.
fn list_import(bin: PathBuf, database: String) -> conformance::client::ListImport {
    Box::new(move |args: &[&str]| {
        let out = Command::new(&bin)
            .args(["lists", "import"])
            .args(args)
            .args(["--database", &database])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
        if out.status.success() {
            Ok(text(&out.stdout))
        } else {
            Err(format!("lists import failed ({}): {}", out.status, text(&out.stderr)))
        }
    })
}

fn main() -> ExitCode {
    let skip = skip_list(include_str!("../skip/native.txt"));
    let (env, server) = match start() {
        Ok(started) => started,
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut ok = runner::run(&env, cases::ALL, &skip, 8);
    if env.console_user.is_some() {
        ok &= runner::run(&env, cases::PEOPLE, &skip, 4);
    } else {
        println!("skipped the people cases: a server that is already up gives no way to create console accounts");
    }
    // The list cases change what production screening answers: after the rest, one at a time.
    if env.list_import.is_some() {
        ok &= runner::run(&env, cases::LISTS, &skip, 1);
    } else {
        println!("skipped the list cases: a server that is already up gives no way to import lists");
    }
    drop(server);
    if let Ok(path) = std::env::var("CGW_SECRETS_OUT") {
        let seen = conformance::client::SECRETS_SEEN.lock().map(|s| s.iter().cloned().collect::<Vec<_>>().join("\n")).unwrap_or_default();
        if let Err(e) = std::fs::write(&path, seen + "\n") {
            eprintln!("conformance: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
