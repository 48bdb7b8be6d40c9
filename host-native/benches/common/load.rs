//! A closed-loop load generator on keep-alive connections: each connection
//! sends its next request when the last is answered.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::Value as Json;
use tokio::net::TcpStream;

use super::Error;

pub struct Conn {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
}

impl Conn {
    pub async fn open(addr: SocketAddr) -> Result<Conn, Error> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        Ok(Conn { sender })
    }

    pub async fn send(&mut self, method: &str, path: &str, key: &str, body: Option<&Json>) -> Result<(u16, Json), Error> {
        let mut builder = hyper::Request::builder().method(method).uri(path).header("host", "bench").header("authorization", format!("Bearer {key}"));
        let bytes = match body {
            Some(b) => {
                builder = builder.header("content-type", "application/json");
                Bytes::from(b.to_string())
            }
            None => Bytes::new(),
        };
        self.sender.ready().await?;
        let response = self.sender.send_request(builder.body(Full::new(bytes))?).await?;
        let status = response.status().as_u16();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, serde_json::from_slice(&body).unwrap_or(Json::Null)))
    }
}

pub struct Figures {
    pub requests: usize,
    pub per_second: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

pub async fn load(
    addr: SocketAddr,
    method: &'static str,
    path: String,
    key: String,
    body: Option<Json>,
    connections: usize,
    seconds: u64,
) -> Result<Figures, Error> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (path, key, body) = (path.clone(), key.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut conn = Conn::open(addr).await?;
            while Instant::now() < deadline {
                let t0 = Instant::now();
                let (status, _) = conn.send(method, &path, &key, body.as_ref()).await?;
                if status != 200 {
                    return Err::<Vec<Duration>, Error>(format!("{method} {path} answered {status}").into());
                }
                latencies.push(t0.elapsed());
            }
            Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pick = |q: f64| all.get(((all.len() as f64 - 1.0) * q) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e6);
    Ok(Figures { requests: all.len(), per_second: all.len() as f64 / elapsed, p50_us: pick(0.50), p99_us: pick(0.99) })
}
