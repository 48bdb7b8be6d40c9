//! The edge-host runner: the same cases against the Worker under the local
//! Workers runtime (workerd through Miniflare: local D1, Durable Objects and
//! KV), started through `scripts/edge.sh serve` on a free port with fresh
//! state. Not `wrangler dev`: its proxy loses a POST now and then (see
//! `host-edge/js/local.mjs`).
//! It runs when `CGW_EDGE_CONFORMANCE=1` (the test command sets it); the
//! edge tools take minutes to build on a new machine.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use conformance::client::unique;
use conformance::harness::{serve_edge, skip_list, wait_healthy, FileServer, Server};
use conformance::receiver::{Behaviour, Receiver};
use conformance::{cases, runner, Env};
use serde_json::json;

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

/// The source name of the list the Worker refreshes by itself.
const REFRESHED_SOURCE: &str = "edge-refresh";
/// Its one entry, a name no case screens otherwise.
const REFRESHED_NAME: (&str, &str) = ("Zebulon", "Quaxworth-Pellingham");

fn start() -> Result<(Env, Server), String> {
    let state = std::env::temp_dir().join(format!("cgw-edge-conformance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).map_err(|e| e.to_string())?;
    // the cases write their bad and updated lists under the temporary folder
    let files = FileServer::start(vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"), std::env::temp_dir()])?;
    let refreshed = state.join("refreshed.csv");
    std::fs::write(
        &refreshed,
        format!(
            "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
             EDGE-1,Person,{} {},,1970-01-01,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n",
            REFRESHED_NAME.0, REFRESHED_NAME.1
        ),
    )
    .map_err(|e| e.to_string())?;
    // Builds the worker (quiet on success), then writes the keys into the local D1.
    let sandbox = admin_key(&state, "sandbox")?;
    let production = admin_key(&state, "production")?;
    let idp = std::sync::Arc::new(conformance::idp::Idp::start()?);
    let mut command = Command::new(script());
    command.envs(idp.edge_vars());
    command
        .args(["serve", "--local-tools", "--state"])
        .arg(&state)
        .env("CGW_LIST_URLS", format!("sandbox,opensanctions-csv,{},{REFRESHED_SOURCE}", files.url(&refreshed)))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    let (server, base) = serve_edge(command, &state, Duration::from_secs(600))?;
    let mut env = Env::new(&base, &sandbox, &production);
    env.list_import = Some(list_import(Env::new(&base, &sandbox, &production), files));
    env.console_user = Some(console_user(base.clone()));
    env.idp = Some(idp);
    wait_healthy(&env, Duration::from_secs(120))?;
    Ok((env, server))
}

/// `lists import` arguments, carried out as a scheduled refresh is: the
/// Worker downloads the list from a file server on loopback and stages it
/// (a local-tools route), and the dispatcher's alarm loads it in chunks;
/// answers once the admin API shows the version active.
fn list_import(admin: Env, files: FileServer) -> conformance::client::ListImport {
    Box::new(move |args: &[&str]| {
        let (mut environment, mut format, mut source, mut path) = (None, None, None, None);
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match *arg {
                "--environment" => environment = args.next().copied(),
                "--format" => format = args.next().copied(),
                "--source" => source = args.next().copied(),
                other => path = Some(other),
            }
        }
        let (Some(environment), Some(format), Some(path)) = (environment, format, path) else {
            return Err(format!("incomplete lists import arguments: {args:?}"));
        };
        let mut query = format!("environment={environment}&format={format}&url={}", encode(&files.url(Path::new(path))));
        if let Some(source) = source {
            query.push_str(&format!("&source={}", encode(source)));
        }
        // Straight to the local route: not an operator's call, so not in the run's checks.
        let staged: serde_json::Value = match ureq::post(&format!("{}/__local/lists-import?{query}", admin.base_url)).call() {
            Ok(response) => response.into_json().map_err(|e| format!("lists import answered no JSON: {e}"))?,
            Err(ureq::Error::Status(status, response)) => {
                return Err(format!("lists import failed ({status}): {}", response.into_string().unwrap_or_default()))
            }
            Err(e) => return Err(format!("lists import failed: {e}")),
        };
        let list_id = staged["list_id"].as_str().unwrap_or_default().to_string();
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let key = if environment == "production" { &admin.admin_production } else { &admin.admin_sandbox };
            let lists = admin.send("GET", "/v1/admin/sanctions/lists", Some(key), None);
            if lists.body["lists"].as_array().is_some_and(|l| l.iter().any(|l| l["list_id"] == json!(list_id))) {
                break;
            }
            if Instant::now() > deadline {
                return Err(format!("list {list_id} was not switched in within 300 s: {}", lists.raw));
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        let b = &staged;
        Ok(format!(
            "imported {} entries ({} names, {} new, changed or delisted) as {} version {}",
            b["entries"],
            b["names"],
            b["changed"],
            b["source"].as_str().unwrap_or_default(),
            b["version"].as_str().unwrap_or_default()
        ))
    })
}

/// A console account through the local-tools route (the Worker has no command line).
fn console_user(base: String) -> conformance::client::ConsoleUser {
    Box::new(move |environment: &str, email: &str, role: &str| {
        let url = format!("{base}/__local/console-user?environment={environment}&email={}&role={role}", encode(email));
        match ureq::post(&url).call() {
            Ok(response) => response.into_json().map_err(|e| format!("console-user answered no JSON: {e}")),
            Err(ureq::Error::Status(status, response)) => {
                Err(format!("console-user failed ({status}): {}", response.into_string().unwrap_or_default()))
            }
            Err(e) => Err(format!("console-user failed: {e}")),
        }
    })
}

/// The list in `CGW_LIST_URLS` is downloaded, loaded and switched in by the
/// dispatcher with no request asking for it, and then screens.
fn a_configured_list_is_refreshed_by_the_dispatcher(env: &Env) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let lists = env.admin_sandbox("GET", "/v1/admin/sanctions/lists", None);
        if lists.body["lists"].as_array().is_some_and(|l| l.iter().any(|l| l["source"] == REFRESHED_SOURCE && l["entry_count"] == 1)) {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("the refreshed list is not active after 60 s: {}", lists.raw));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let t = env.sandbox()?;
    let listed = t.post(
        "/v1/sanctions/screen",
        json!({ "user_id": unique("refreshed"), "first_name": REFRESHED_NAME.0, "last_name": REFRESHED_NAME.1,
                "date_of_birth": "1970-01-01", "nationality": "GB", "email": "z@example.com" }),
    );
    listed.expect(201)?;
    if listed.str("status") != "hit_review_pending" {
        return Err(format!("the refreshed list did not screen: {}", listed.raw));
    }
    Ok(())
}

/// A query value, percent-encoded.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' | b':' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The edge has no background loop: retries are sent by the dispatcher's
/// alarm. Run before the suite, while nothing else talks to the Worker, a
/// retry must still arrive: the first attempt fails, and no later request
/// comes to carry the second.
fn retries_arrive_with_no_other_traffic(env: &Env) -> Result<(), String> {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::FailFirst(1))?;
    t.post("/v1/webhooks", json!({ "url": receiver.url })).expect(201)?;
    let user = unique("quiet");
    t.signup(&user)?;
    let created =
        t.post("/v1/exclusions", json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": t.now_iso()? }));
    created.expect(201)?;
    let id = created.str("exclusion_id").to_string();
    receiver.wait_until(Duration::from_secs(30), "the retry sent by the dispatcher's alarm", |all| {
        all.iter().any(|r| r.json["data"]["exclusion_id"] == id.as_str() && r.answered == 200)
    })?;
    Ok(())
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
    let mut edge_only_ok = true;
    for (name, check) in [
        ("retries_arrive_with_no_other_traffic", retries_arrive_with_no_other_traffic as fn(&Env) -> Result<(), String>),
        ("a_configured_list_is_refreshed_by_the_dispatcher", a_configured_list_is_refreshed_by_the_dispatcher),
    ] {
        let outcome = check(&env);
        println!("test edge::{name} ... {}", if outcome.is_ok() { "ok" } else { "FAILED" });
        if let Err(e) = &outcome {
            println!("---- edge::{name} ----\n{e}\n");
            edge_only_ok = false;
        }
    }
    let ok = runner::run(&env, cases::ALL, &skip, 8) && edge_only_ok;
    let ok = runner::run(&env, cases::PEOPLE, &skip, 4) && ok;
    // The list cases change what production screening answers: after the rest, one at a time.
    let ok = runner::run(&env, cases::LISTS, &skip, 1) && ok;
    drop(server);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
