//! What the gateway-level tests share: one request through `Gateway::handle`,
//! a test clock, a fresh Postgres database and a loopback stand-in server.
#![allow(dead_code)]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::input::SourceAddress;
use gateway::ports::Clock;
use gateway::Gateway;
use serde_json::Value as Json;

/// Imports one entry into `environment`'s OFAC source, naming no one the
/// tests screen: a list update whose re-screen finds nothing.
pub async fn import_an_unrelated_entry(gateway: &Gateway, environment: gateway::auth::Environment) {
    let entry = gateway::lists::ListEntry {
        entity_id: "1".into(),
        kind: rules::EntryKind::Individual,
        names: vec!["Lavrentiy Prokhodtsev".into()],
        dates_of_birth: vec!["1961-07-04".into()],
        nationalities: vec!["RU".into()],
        programs: "TEST".into(),
        topic: rules::EntryTopic::Sanction,
    };
    gateway::lists::import(gateway, environment, "ofac-sdn", gateway::lists::ListFormat::OfacCsv, vec![entry], "cli").await.unwrap();
}

/// Sends one request with `key`, from `source` when given; answers the status and the JSON body.
pub async fn call_from(gateway: &Gateway, source: Option<&str>, key: &str, method: &str, path: &str, body: Json) -> (u16, Json) {
    let mut builder = http::Request::builder().method(method).uri(path).header("authorization", format!("Bearer {key}"));
    let bytes = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    if !bytes.is_empty() {
        builder = builder.header("content-type", "application/json");
    }
    let Ok(mut request) = builder.body(bytes) else { return (0, Json::Null) };
    if let Some(ip) = source.and_then(|s| s.parse().ok()) {
        request.extensions_mut().insert(SourceAddress(ip));
    }
    let response = gateway.handle(request).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

/// [`call_from`] with no source address.
pub async fn call(gateway: &Gateway, key: &str, method: &str, path: &str, body: Json) -> (u16, Json) {
    call_from(gateway, None, key, method, path, body).await
}

/// A clock the test moves.
#[derive(Clone)]
pub struct TestClock(pub Arc<AtomicI64>);

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A name no other test of this run takes: the clock alone repeated itself
/// once when two tests started in the same nanosecond.
pub fn unique_suffix() -> String {
    static NEXT: AtomicI64 = AtomicI64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{}_{nanos}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The URL of a new database, `{prefix}_…`, on the server `CGW_TEST_POSTGRES_URL`
/// names; `None`, said on stderr, when it names none. A named server that
/// cannot be reached fails the test rather than skip it.
#[allow(clippy::expect_used)]
pub async fn postgres_database(prefix: &str) -> Option<String> {
    let Ok(url) = std::env::var("CGW_TEST_POSTGRES_URL") else {
        eprintln!("skipped on Postgres: CGW_TEST_POSTGRES_URL is not set");
        return None;
    };
    let name = format!("{prefix}_{}", unique_suffix());
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect to CGW_TEST_POSTGRES_URL");
    tokio::spawn(connection);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.expect("create a test database");
    let base = url.rsplit_once('/').map(|(b, _)| b).unwrap_or(&url);
    Some(format!("{base}/{name}"))
}

/// What a stand-in server gets of a request.
pub struct Received<'a> {
    pub method: &'a str,
    /// the path with its query
    pub path: &'a str,
    pub headers: &'a http::HeaderMap,
    pub body: &'a [u8],
}

/// A server on a free loopback port answering every request with
/// `answer`'s status and body (`application/json` when it starts with `{`).
pub async fn loopback_server<F>(answer: F) -> std::io::Result<std::net::SocketAddr>
where
    F: Fn(&Received<'_>) -> (u16, Vec<u8>) + Send + Sync + 'static,
{
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let answer = answer.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let answer = answer.clone();
                    async move {
                        let method = request.method().to_string();
                        let path = request.uri().path_and_query().map(|p| p.to_string()).unwrap_or_default();
                        let headers = request.headers().clone();
                        let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                        let (status, reply) = answer(&Received { method: &method, path: &path, headers: &headers, body: &body });
                        let json = reply.first() == Some(&b'{');
                        let mut response = hyper::Response::new(Full::new(Bytes::from(reply)));
                        *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
                        if json {
                            response.headers_mut().insert("content-type", http::HeaderValue::from_static("application/json"));
                        }
                        Ok::<_, std::convert::Infallible>(response)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
            });
        }
    });
    Ok(addr)
}

/// A `compliance-gateway serve` process on loopback, killed (SIGKILL) when dropped.
pub struct ServeProcess {
    child: std::process::Child,
    pub base: String,
}

impl ServeProcess {
    /// Starts `serve` on `port` and waits for its health check; `key_file`
    /// is its secret key file (by default beside a SQLite database).
    pub async fn start(database: &str, port: u16, key_file: Option<&std::path::Path>) -> ServeProcess {
        Self::start_with(database, port, key_file, &[], std::process::Stdio::null()).await
    }

    /// [`ServeProcess::start`] with further `serve` arguments, its standard output (the request log) sent to `stdout`.
    pub async fn start_with(
        database: &str,
        port: u16,
        key_file: Option<&std::path::Path>,
        args: &[&str],
        stdout: std::process::Stdio,
    ) -> ServeProcess {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_compliance-gateway"));
        command.args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", database]).args(args);
        if let Some(file) = key_file {
            // Hosts sharing a database share a key, which must exist before they start.
            if !file.exists() {
                std::fs::write(file, base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [5u8; 32])).expect("write the key file");
            }
            command.arg("--secret-key-file").arg(file);
        }
        let child = command.stdout(stdout).stderr(std::process::Stdio::null()).spawn().expect("start serve");
        // owned before the wait: a server that never answers is killed by the failing test's drop
        let server = ServeProcess { child, base: format!("http://127.0.0.1:{port}") };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while reqwest::get(format!("{}/v1/health", server.base)).await.ok().map(|r| r.status().as_u16()) != Some(200) {
            assert!(std::time::Instant::now() < deadline, "the server did not start");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        server
    }

    /// Stops the server as a service manager does (SIGTERM) and waits for it
    /// to finish: its last log lines written, its last decisions flushed.
    pub fn terminate(&mut self) {
        let _ = std::process::Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A child process killed when dropped (a driver, a browser's helper).
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs a `compliance-gateway` command that must succeed; answers its standard output, trimmed.
pub fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_compliance-gateway")).args(args).output().expect("run compliance-gateway");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// One request over HTTP with `key`, the body as JSON; the status and the JSON answer.
#[allow(clippy::expect_used)]
pub async fn send(base: &str, key: &str, method: reqwest::Method, path: &str, body: Option<Json>) -> (u16, Json) {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("send the request");
    (response.status().as_u16(), response.json().await.unwrap_or(Json::Null))
}

/// A free port on loopback.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback").local_addr().expect("local address").port()
}
