//! What every host's runner needs: a free loopback port, a child server
//! that is killed with its runner, a health wait and the host's skip list.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::Env;

/// A server process, killed (with its process group) when dropped.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.0.id()) {
            // SAFETY: kill(2) on the process group this runner created.
            unsafe {
                libc::kill(-pid, libc::SIGTERM);
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Spawns `scripts/edge.sh serve` (`command`, every argument but the port)
/// on a port the local runtime takes itself (`--port 0`), and answers the
/// server with its base URL once the runtime listens. A port picked in
/// advance ([`free_port`]) may be taken meanwhile by another runtime's own
/// sockets; this never races. Fails as soon as the server exits first.
pub fn serve_edge(mut command: Command, state: &Path, within: Duration) -> Result<(Server, String), String> {
    let port_file = state.join("serving.port");
    let _ = std::fs::remove_file(&port_file);
    command.arg("--port").arg("0").arg("--port-file").arg(&port_file);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut server = Server(command.spawn().map_err(|e| format!("cannot start scripts/edge.sh serve: {e}"))?);
    let deadline = Instant::now() + within;
    loop {
        if let Ok(text) = std::fs::read_to_string(&port_file) {
            let port: u16 = text.trim().parse().map_err(|_| format!("the port file holds {text:?}"))?;
            return Ok((server, format!("http://127.0.0.1:{port}")));
        }
        if let Ok(Some(status)) = server.0.try_wait() {
            return Err(format!("scripts/edge.sh serve exited before it listened ({status})"));
        }
        if Instant::now() > deadline {
            return Err(format!("scripts/edge.sh serve did not listen within {} s", within.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until `GET /v1/health` answers 200.
pub fn wait_healthy(env: &Env, within: Duration) -> Result<(), String> {
    let deadline = Instant::now() + within;
    while env.call("GET", "/v1/health", None, None).status != 200 {
        if Instant::now() > deadline {
            return Err(format!("the server did not become healthy in {} seconds", within.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// The case names of a skip list: one a line, `#` starts a comment (the reason).
pub fn skip_list(text: &str) -> Vec<&str> {
    text.lines().map(|l| l.split('#').next().unwrap_or_default().trim()).filter(|l| !l.is_empty()).collect()
}

/// Files on loopback for a host that imports lists by URL: `GET /PATH`
/// answers the file at the absolute PATH when it lies under one of the
/// roots, 404 otherwise. It serves until the runner exits.
pub struct FileServer {
    pub addr: std::net::SocketAddr,
}

impl FileServer {
    pub fn start(roots: Vec<std::path::PathBuf>) -> Result<Self, String> {
        let roots: Vec<std::path::PathBuf> = roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
        let server = tiny_http::Server::http("127.0.0.1:0").map_err(|e| e.to_string())?;
        let addr = server.server_addr().to_ip().ok_or("the file server has no IP address")?;
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                let path = std::path::PathBuf::from(request.url().split('?').next().unwrap_or_default());
                let file = path.canonicalize().ok().filter(|p| roots.iter().any(|r| p.starts_with(r)) && p.is_file());
                let _ = match file.and_then(|p| std::fs::read(p).ok()) {
                    Some(bytes) => request.respond(tiny_http::Response::from_data(bytes)),
                    None => request.respond(tiny_http::Response::from_string("not found").with_status_code(404)),
                };
            }
        });
        Ok(FileServer { addr })
    }

    /// The URL of a file or, ending in `/`, of a folder.
    pub fn url(&self, path: &std::path::Path) -> String {
        let slash = if path.is_dir() { "/" } else { "" };
        format!("http://{}{}{slash}", self.addr, path.display())
    }
}
