//! A TLS 1.3 client on `pqdr_rustls::provider()`: connects to an `https://`
//! URL, sends one HTTP/1.0 request line, prints the negotiated protocol,
//! cipher suite and key-exchange group, and the first line of the reply.
//!
//! Against the local Go server of the live tests (`interop/go/tls`, Go's
//! crypto/tls, which answers a line with `go:GROUP:LINE`):
//!
//! ```sh
//! (cd interop/go && go run ./tls server -groups X25519MLKEM768 \
//!     -cert ../../crates/pqdr-rustls/tests/data/server.pem \
//!     -key ../../crates/pqdr-rustls/tests/data/server.key)   # prints "listening 127.0.0.1:PORT"
//! cargo run --release -p pqdr-rustls --example tls_client -- https://127.0.0.1:PORT/
//! ```
//!
//! The trusted CA is `tests/data/ca.pem` (the Go server's), or the PEM file
//! given with `--ca FILE`.

#![allow(clippy::print_stdout, missing_docs, reason = "a demo program")]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

type Error = Box<dyn core::error::Error>;

/// `https://HOST[:PORT][/PATH]` to (host, port, path).
fn parse(url: &str) -> Result<(String, u16, String), Error> {
    let rest = url
        .strip_prefix("https://")
        .ok_or("the URL must start with https://")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (h, rest) = v6.split_once(']').ok_or("no ']' after an IPv6 address")?;
            (h, rest.strip_prefix(':').map_or(Ok(443), str::parse)?)
        }
        None => match authority.split_once(':') {
            Some((h, p)) => (h, p.parse()?),
            None => (authority, 443),
        },
    };
    let path = if path.is_empty() { "/" } else { path };
    Ok((host.to_string(), port, path.to_string()))
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (url, ca) = match args.as_slice() {
        [url] => (url.clone(), None),
        [flag, ca, url] if flag == "--ca" => (url.clone(), Some(ca.clone())),
        _ => return Err("usage: tls_client [--ca CA.pem] https://HOST[:PORT]/".into()),
    };
    let (host, port, path) = parse(&url)?;
    let ca = ca.unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ca.pem").into());

    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&ca)? {
        roots.add(cert?)?;
    }
    let config = ClientConfig::builder_with_provider(Arc::new(pqdr_rustls::provider()))
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(host.clone())?;
    let conn = ClientConnection::new(Arc::new(config), name)?;
    let mut tls = StreamOwned::new(conn, TcpStream::connect((host.as_str(), port))?);

    tls.write_all(format!("GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").as_bytes())?;
    tls.flush()?;
    let mut reply = String::new();
    BufReader::new(&mut tls).read_line(&mut reply)?;

    let conn = &tls.conn;
    let group = conn
        .negotiated_key_exchange_group()
        .ok_or("no key exchange")?;
    println!("connected to {host}:{port}");
    println!(
        "protocol:     {:?}",
        conn.protocol_version().ok_or("no version")?
    );
    println!(
        "cipher suite: {:?}",
        conn.negotiated_cipher_suite().ok_or("no suite")?.suite()
    );
    println!(
        "group:        {:?} (0x{:04x})",
        group.name(),
        u16::from(group.name())
    );
    println!("reply:        {}", reply.trim_end());
    Ok(())
}
