//! The native host's outbound client for vendors and registers.
//!
//! Issue #47: it presents a register's client certificate
//! (CRUKS's PKIoverheid certificate) over TLS. A TLS server on loopback that
//! requires a client certificate of its own authority answers a request
//! carrying the certificate; the twin: the same request without it is
//! refused in the handshake, and a key that cannot be read is an error that
//! does not repeat it.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::sync::Arc;

use gateway::ports::{ClientIdentity, VendorHttp, VendorRequest};
use host_native::webhooks::VendorClient;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CA: &str = include_str!("data/mtls/ca.pem");
const SERVER_CERT: &str = include_str!("data/mtls/server.pem");
const SERVER_KEY: &str = include_str!("data/mtls/server.key.pem");
const CLIENT_CERT: &str = include_str!("data/mtls/client.pem");
const CLIENT_KEY: &str = include_str!("data/mtls/client.key.pem");

/// A one-request-a-connection HTTPS server that requires a client certificate signed by the test authority.
async fn server() -> std::net::SocketAddr {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from_pem_slice(CA.as_bytes()).unwrap()).unwrap();
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone()).build().unwrap();
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(
            vec![CertificateDer::from_pem_slice(SERVER_CERT.as_bytes()).unwrap()],
            PrivateKeyDer::from_pem_slice(SERVER_KEY.as_bytes()).unwrap(),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else { return };
                let presented = tls.get_ref().1.peer_certificates().is_some_and(|c| !c.is_empty());
                let mut buffer = [0u8; 4096];
                let _ = tls.read(&mut buffer).await;
                let body = format!("{{\"presented\":{presented}}}");
                let answer =
                    format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    addr
}

fn request(addr: std::net::SocketAddr, identity: Option<ClientIdentity>) -> VendorRequest {
    VendorRequest {
        method: "POST",
        url: format!("https://localhost:{}/is-registered", addr.port()),
        headers: vec![("content-type".into(), "application/json".into())],
        body: b"{}".to_vec(),
        client_identity: identity,
    }
}

#[tokio::test]
async fn a_registers_client_certificate_is_presented_over_tls() {
    let addr = server().await;
    let client = VendorClient::trusting(CA.as_bytes()).unwrap();
    let identity = ClientIdentity { certificate_pem: CLIENT_CERT.into(), key_pem: CLIENT_KEY.into() };
    let answered = client.send(request(addr, Some(identity.clone()))).await.unwrap();
    assert_eq!((answered.status, String::from_utf8_lossy(&answered.body).to_string()), (200, r#"{"presented":true}"#.to_string()));
    // once built, the certificate's client is used again
    assert_eq!(client.send(request(addr, Some(identity))).await.unwrap().status, 200);

    // the twin: without the certificate the server refuses the handshake
    assert!(client.send(request(addr, None)).await.is_err(), "a server that requires a client certificate answered without one");

    // a key that cannot be read is an error that does not repeat it
    let bad = ClientIdentity {
        certificate_pem: CLIENT_CERT.into(),
        key_pem: "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleQ==\n-----END PRIVATE KEY-----".into(),
    };
    let error = client.send(request(addr, Some(bad))).await.unwrap_err();
    assert!(!error.contains("c2VjcmV0LWtleQ"), "{error}");
}

/// A plain http server on loopback answering 200 with `size` bytes.
async fn answering(size: usize) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = [0u8; 4096];
                let _ = socket.read(&mut buffer).await;
                let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {size}\r\nconnection: close\r\n\r\n");
                let _ = socket.write_all(head.as_bytes()).await;
                let chunk = vec![b' '; 64 * 1024];
                let mut left = size;
                while left > 0 {
                    let n = left.min(chunk.len());
                    if socket.write_all(&chunk[..n]).await.is_err() {
                        return;
                    }
                    left -= n;
                }
            });
        }
    });
    addr
}

/// Issue #47: a register's (or a vendor's) answer past 4 MiB is refused as it
/// arrives, never held whole; the twin: an answer within the bound is read.
#[tokio::test]
async fn an_answer_past_the_bound_is_refused() {
    let client = VendorClient::new().unwrap();
    let plain = |addr: std::net::SocketAddr| VendorRequest {
        method: "POST",
        url: format!("http://127.0.0.1:{}/", addr.port()),
        headers: Vec::new(),
        body: Vec::new(),
        client_identity: None,
    };
    let small = client.send(plain(answering(64 * 1024).await)).await.unwrap();
    assert_eq!((small.status, small.body.len()), (200, 64 * 1024));
    let error = client.send(plain(answering(5 << 20).await)).await.unwrap_err();
    assert!(error.contains("larger than"), "{error}");
}
