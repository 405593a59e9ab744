//! ML-DSA authentication (draft-ietf-tls-mldsa), rustls ↔ rustls in memory
//! with pqdr on both sides: an ML-DSA CA (self-signed with ML-DSA) and
//! leaves with RFC 9881 keys, built in `certs`; server and mutual
//! authentication for every level and several groups, the scheme each
//! CertificateVerify used, webpki's verdict on the chain, and refusals
//! (wrong certificate signature, wrong OID, truncated key, modified
//! CertificateVerify) with rustls' typed errors.

use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{
    CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, SubjectPublicKeyInfoDer, UnixTime,
};
use rustls::server::WebPkiClientVerifier;
use rustls::sign::{CertifiedKey, Signer, SigningKey, SingleCertAndKey};
use rustls::{CertificateError, ClientConfig, Error, HandshakeKind, ServerConfig, SignatureScheme};

use crate::certs::{Alg, Key, Pki, client, roots, server};
use crate::common::{Side, handshake};
use crate::recorded::{Log, Seen, take};

/// pqdr's provider with one key-exchange group.
fn provider(group: &'static dyn rustls::crypto::SupportedKxGroup) -> Arc<CryptoProvider> {
    let mut p = pqdr_rustls::provider();
    p.kx_groups = vec![group];
    Arc::new(p)
}

/// Mutual authentication with recording verifiers on both sides: the
/// configurations and what each side's verifier saw (the client's: the
/// server's scheme; the server's: the client's).
type Recorded = (Arc<ClientConfig>, Arc<ServerConfig>, Log, Log);

fn recorded_mutual(pki: &Pki, provider: Arc<CryptoProvider>) -> Recorded {
    let (seen_by_client, seen_by_server) = (Log::default(), Log::default());
    let server_verifier = Seen::new(
        WebPkiServerVerifier::builder_with_provider(Arc::new(pki.roots()), provider.clone())
            .build()
            .expect("verifier"),
        &seen_by_client,
    );
    let client_verifier = Seen::new(
        WebPkiClientVerifier::builder_with_provider(Arc::new(pki.roots()), provider.clone())
            .build()
            .expect("verifier"),
        &seen_by_server,
    );
    let c = ClientConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .dangerous()
        .with_custom_certificate_verifier(server_verifier)
        .with_client_auth_cert(vec![pki.client.clone()], pki.client_key.private_key())
        .expect("client key");
    let s = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_client_cert_verifier(client_verifier)
        .with_single_cert(vec![pki.server.clone()], pki.server_key.private_key())
        .expect("server key");
    (Arc::new(c), Arc::new(s), seen_by_client, seen_by_server)
}

/// Every ML-DSA level, server-only and mutual authentication, over three
/// groups (a hybrid, pure ML-KEM, and ring's classical X25519): the
/// handshake completes and carries data, each CertificateVerify used the
/// level's scheme (0x0904–0x0906), and each side saw the other's leaf.
#[test]
fn every_level_authenticates_server_and_client() {
    let groups = [
        pqdr_rustls::X25519MLKEM768,
        pqdr_rustls::MLKEM1024,
        rustls::crypto::ring::kx_group::X25519,
    ];
    for alg in Alg::ML_DSA {
        let pki = Pki::new(alg);
        for group in groups {
            // Server authentication only.
            let s = server(
                provider(group),
                vec![pki.server.clone()],
                pki.server_key.private_key(),
                None,
            )
            .expect("server config");
            let c = client(provider(group), pki.roots(), None).expect("client config");
            let (c, _) = handshake(c, s).unwrap_or_else(|e| panic!("{alg:?} {group:?}: {e:?}"));
            assert_eq!(c.peer_certificates(), Some(&[pki.server.clone()][..]));
            assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));

            // Mutual authentication, both CertificateVerify schemes recorded.
            let (c, s, seen_by_client, seen_by_server) = recorded_mutual(&pki, provider(group));
            let (c, s) = handshake(c, s).unwrap_or_else(|e| panic!("{alg:?} {group:?}: {e:?}"));
            assert_eq!(take(&seen_by_client), [alg.scheme()], "{alg:?}");
            assert_eq!(take(&seen_by_server), [alg.scheme()], "{alg:?}");
            assert_eq!(s.peer_certificates(), Some(&[pki.client.clone()][..]));
            assert_eq!(
                c.negotiated_key_exchange_group().map(|g| g.name()),
                Some(group.name())
            );
        }
    }
}

/// rustls-webpki verifies each ML-DSA chain (CA self-signed with ML-DSA,
/// leaf signed by it) through `SUPPORTED_SIG_ALGS.all`, for server and
/// client use; with ring's algorithms alone (no ML-DSA) it cannot.
#[test]
fn webpki_verifies_the_mldsa_chain() {
    let now = UnixTime::now();
    let ring_only = rustls::crypto::ring::default_provider().signature_verification_algorithms;
    for alg in Alg::ML_DSA {
        let pki = Pki::new(alg);
        let anchors = [webpki::anchor_from_trusted_cert(&pki.ca).expect("anchor")];
        for (leaf, usage) in [
            (
                &pki.server,
                webpki::KeyUsage::server_auth as fn() -> webpki::KeyUsage,
            ),
            (&pki.client, webpki::KeyUsage::client_auth),
        ] {
            let ee = webpki::EndEntityCert::try_from(leaf).expect("leaf");
            ee.verify_for_usage(
                pqdr_rustls::SUPPORTED_SIG_ALGS.all,
                &anchors,
                &[],
                now,
                usage(),
                None,
                None,
            )
            .unwrap_or_else(|e| panic!("{alg:?}: {e:?}"));
            let refused = ee
                .verify_for_usage(ring_only.all, &anchors, &[], now, usage(), None, None)
                .is_err();
            assert!(refused, "{alg:?}: ring alone verified ML-DSA");
        }
    }
}

/// The error a client reports for a server presenting `chain` (with the
/// right key) to a client trusting `ca`.
fn client_error(
    pki: &Pki,
    chain: Vec<CertificateDer<'static>>,
    ca: &CertificateDer<'static>,
) -> (Side, Error) {
    let p = provider(pqdr_rustls::X25519MLKEM768);
    let key = pqdr_rustls::any_mldsa_key(&pki.server_key.private_key()).expect("key");
    let resolver = SingleCertAndKey::from(CertifiedKey::new(chain, key));
    let s = ServerConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(resolver));
    let c = client(p, roots(ca), None).expect("client config");
    handshake(c, Arc::new(s)).expect_err("must be refused")
}

/// Certificates the client must refuse, for every level: a leaf whose
/// signature has one bit flipped (BadSignature); a leaf signed by the CA's
/// ML-DSA key but labelled with another level's OID (webpki finds no
/// algorithm for that signature OID with the CA's key); a trust anchor
/// whose key is one byte short (no signature verifies under it).
#[test]
fn bad_certificates_are_refused_with_typed_errors() {
    for (i, alg) in Alg::ML_DSA.into_iter().enumerate() {
        let pki = Pki::new(alg);

        let mut bad_sig = pki.server.to_vec();
        *bad_sig.last_mut().expect("non-empty") ^= 1;
        let e = client_error(&pki, vec![bad_sig.into()], &pki.ca);
        assert_eq!(
            e,
            (
                Side::Client,
                Error::InvalidCertificate(CertificateError::BadSignature)
            ),
            "{alg:?}"
        );

        let other = Alg::ML_DSA[if i == 2 { 0 } else { i + 1 }].signature_oid();
        let wrong_oid = pki.leaf(&pki.server_key.spki, other);
        let (side, e) = client_error(&pki, vec![wrong_oid], &pki.ca);
        assert_eq!(side, Side::Client);
        assert!(
            matches!(
                e,
                Error::InvalidCertificate(
                    CertificateError::UnsupportedSignatureAlgorithmForPublicKeyContext { .. }
                        | CertificateError::UnsupportedSignatureAlgorithmContext { .. }
                )
            ),
            "{alg:?}: {e:?}"
        );

        // The CA certificate with its key's last byte removed (the SPKI's
        // lengths fixed up), self-signed again: as a trust anchor its key
        // is one byte short, so the genuine leaf does not verify.
        let mut short_spki = pki.ca_key.spki.clone();
        short_spki.pop();
        fix_spki_lengths(&mut short_spki);
        let short_ca = pki.ca_with_spki(&short_spki);
        let e = client_error(&pki, vec![pki.server.clone()], &short_ca);
        assert_eq!(
            e,
            (
                Side::Client,
                Error::InvalidCertificate(CertificateError::BadSignature)
            ),
            "{alg:?}"
        );
    }
}

/// The DER lengths of an ML-DSA SubjectPublicKeyInfo (SEQUENCE, then the
/// BIT STRING, both with 2-byte long-form lengths: keys are 1312–2592
/// bytes) after one byte was removed from its end.
fn fix_spki_lengths(spki: &mut [u8]) {
    assert_eq!(&spki[..2], &[0x30, 0x82]);
    let outer = u16::from_be_bytes([spki[2], spki[3]]) - 1;
    spki[2..4].copy_from_slice(&outer.to_be_bytes());
    // SEQUENCE header (4) + AlgorithmIdentifier (13) = the BIT STRING at 17.
    assert_eq!(&spki[17..19], &[0x03, 0x82]);
    let bits = u16::from_be_bytes([spki[19], spki[20]]) - 1;
    spki[19..21].copy_from_slice(&bits.to_be_bytes());
}

/// A signing key whose CertificateVerify signatures have one bit flipped.
#[derive(Debug)]
struct Flipping(Arc<dyn SigningKey>);

#[derive(Debug)]
struct FlippingSigner(Box<dyn Signer>);

impl SigningKey for Flipping {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        Some(Box::new(FlippingSigner(self.0.choose_scheme(offered)?)))
    }
    fn algorithm(&self) -> rustls::SignatureAlgorithm {
        self.0.algorithm()
    }
}

impl Signer for FlippingSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let mut sig = self.0.sign(message)?;
        sig[10] ^= 1;
        Ok(sig)
    }
    fn scheme(&self) -> SignatureScheme {
        self.0.scheme()
    }
}

/// A modified ML-DSA CertificateVerify is refused with BadSignature: the
/// server's by the client, and the client's by the server.
#[test]
fn modified_certificate_verify_is_refused() {
    for alg in Alg::ML_DSA {
        let pki = Pki::new(alg);
        let p = provider(pqdr_rustls::MLKEM768);
        let bad_key = |key: &Key| -> Arc<dyn SigningKey> {
            Arc::new(Flipping(
                pqdr_rustls::any_mldsa_key(&key.private_key()).expect("key"),
            ))
        };

        let s = ServerConfig::builder_with_provider(p.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3")
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(SingleCertAndKey::from(CertifiedKey::new(
                vec![pki.server.clone()],
                bad_key(&pki.server_key),
            ))));
        let c = client(p.clone(), pki.roots(), None).expect("client");
        let e = handshake(c, Arc::new(s)).expect_err("refused");
        let bad = Error::InvalidCertificate(CertificateError::BadSignature);
        assert_eq!(e, (Side::Client, bad.clone()), "{alg:?}");

        let s = server(
            p.clone(),
            vec![pki.server.clone()],
            pki.server_key.private_key(),
            Some(pki.roots()),
        )
        .expect("server");
        let c = ClientConfig::builder_with_provider(p)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3")
            .with_root_certificates(pki.roots())
            .with_client_cert_resolver(Arc::new(SingleCertAndKey::from(CertifiedKey::new(
                vec![pki.client.clone()],
                bad_key(&pki.client_key),
            ))));
        let e = handshake(Arc::new(c), s).expect_err("refused");
        assert_eq!(e, (Side::Server, bad), "{alg:?}");
    }
}

/// Key loading: every level's RFC 9881 seed-form PKCS#8 key loads with
/// its scheme and SPKI; a truncated key, a PKCS#1-tagged key and an
/// ECDSA key are refused by `any_mldsa_key` with an error (no panic), and
/// the provider's key provider still loads the ECDSA key through ring.
#[test]
fn keys_load_and_bad_keys_are_refused() {
    for alg in Alg::ML_DSA {
        let key = Key::new(alg, 9);
        let loaded = pqdr_rustls::any_mldsa_key(&key.private_key()).expect("loads");
        assert!(loaded.choose_scheme(&[alg.scheme()]).is_some());
        let spki = loaded.public_key().expect("SPKI");
        assert_eq!(spki, SubjectPublicKeyInfoDer::from(&key.spki[..]));

        for cut in [1, key.pkcs8.len() >> 1, key.pkcs8.len() - 1] {
            let truncated =
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.pkcs8[..cut].to_vec()));
            assert!(matches!(
                pqdr_rustls::any_mldsa_key(&truncated),
                Err(Error::General(_))
            ));
        }
        let pkcs1 = PrivateKeyDer::Pkcs1(key.pkcs8.clone().into());
        assert!(pqdr_rustls::any_mldsa_key(&pkcs1).is_err());

        // The seed form with a 31-byte seed: well-formed DER with this
        // level's OID, refused by pqdr-mldsa (a length error), and so by
        // the key provider too (not handed to ring).
        let mut short = key.pkcs8.clone();
        short.pop();
        for i in [1, 19, 21] {
            short[i] -= 1; // the three enclosing DER lengths
        }
        let short = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(short));
        let e = pqdr_rustls::any_mldsa_key(&short).expect_err("refused");
        assert!(
            matches!(&e, Error::General(m) if m.contains(alg.name())),
            "{e:?}"
        );
        let e = pqdr_rustls::KEY_PROVIDER
            .load_private_key(short)
            .expect_err("refused");
        assert!(
            matches!(&e, Error::General(m) if m.contains(alg.name())),
            "{e:?}"
        );
    }
    let ecdsa = Key::new(Alg::EcdsaP256, 0);
    assert!(pqdr_rustls::any_mldsa_key(&ecdsa.private_key()).is_err());
    let loaded = pqdr_rustls::KEY_PROVIDER
        .load_private_key(ecdsa.private_key())
        .expect("ring loads ECDSA");
    assert!(
        loaded
            .choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256])
            .is_some()
    );
}
