//! Shared by the tests (`mldsa`, `go_interop`) and `examples/bctls_peer.rs`
//! (through `#[path]`): a rustls certificate verifier that records the
//! scheme of every TLS 1.3 CertificateVerify it checks, on the client side
//! (the server's signature) or the server side (the client's), and the line
//! reader of the loopback exchanges.

use std::io::Read;
use std::sync::{Arc, Mutex};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, DistinguishedName, Error, SignatureScheme};

/// The schemes the checked CertificateVerify messages used, in order.
pub(crate) type Log = Arc<Mutex<Vec<SignatureScheme>>>;

/// What `log` holds, emptying it.
pub(crate) fn take(log: &Log) -> Vec<SignatureScheme> {
    core::mem::take(&mut *log.lock().expect("lock"))
}

/// A verifier, `inner`'s verdicts unchanged, recording into `log` the
/// scheme of each TLS 1.3 CertificateVerify it checks.
#[derive(Debug)]
pub(crate) struct Seen<V: ?Sized> {
    inner: Arc<V>,
    log: Log,
}

impl<V: ?Sized> Seen<V> {
    pub(crate) fn new(inner: Arc<V>, log: &Log) -> Arc<Self> {
        Arc::new(Self {
            inner,
            log: log.clone(),
        })
    }
}

/// The three signature methods both verifier traits share, identically:
/// TLS 1.2 and the scheme list pass through, TLS 1.3 is recorded first.
macro_rules! recorded_signature_checks {
    () => {
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, Error> {
            self.inner.verify_tls12_signature(message, cert, dss)
        }
        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, Error> {
            self.log.lock().expect("lock").push(dss.scheme);
            self.inner.verify_tls13_signature(message, cert, dss)
        }
        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.inner.supported_verify_schemes()
        }
    };
}

impl ServerCertVerifier for Seen<WebPkiServerVerifier> {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
    }
    recorded_signature_checks!();
}

impl ClientCertVerifier for Seen<dyn ClientCertVerifier> {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        self.inner.root_hint_subjects()
    }
    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> Result<ClientCertVerified, Error> {
        self.inner
            .verify_client_cert(end_entity, intermediates, now)
    }
    recorded_signature_checks!();
}

/// One `\n`-terminated line from a TLS stream, byte by byte (nothing read
/// past it), without the `\n`.
pub(crate) fn read_line(tls: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        tls.read_exact(&mut byte)?;
        if byte[0] == b'\n' {
            return Ok(String::from_utf8_lossy(&line).into_owned());
        }
        line.push(byte[0]);
    }
}
