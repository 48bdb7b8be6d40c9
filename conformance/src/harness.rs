//! What every host's runner needs: a free loopback port, a child server
//! that is killed with its runner, a health wait and the host's skip list.

use std::process::Child;
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
