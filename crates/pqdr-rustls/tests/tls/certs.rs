//! Test certificates built here with RustCrypto `x509-cert`: a CA and the
//! server's and client's leaf certificates for one signature algorithm
//! (ECDSA P-256 signed by `ring`, or ML-DSA-44/65/87 signed by pqdr-mldsa,
//! RFC 9881 keys, the CA's self-signature included), and the rustls
//! configurations for server and mutual authentication with them.
//!
//! Shared with `examples/tls_bench.rs` (`#[path]`): no test-only imports.
#![allow(dead_code, reason = "the tests and the benchmark each use a part")]

use core::str::FromStr;
use core::time::Duration;
use std::sync::Arc;

use pqdr_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PrivateKeyForm};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair as _};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, RootCertStore, ServerConfig};
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::certificate::TbsCertificate;
use x509_cert::der::asn1::{BitString, Ia5String, ObjectIdentifier, OctetString};
use x509_cert::der::{self, Any, Decode, Encode};
use x509_cert::ext::Extension;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{
    BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsages, SubjectAltName,
};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{
    self, AlgorithmIdentifierOwned, Document, DynSignatureAlgorithmIdentifier, EncodePublicKey,
    SignatureBitStringEncoding, SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef,
};
use x509_cert::time::Validity;

/// RFC 5480 §2.1.1 `id-ecPublicKey` and §2.1.1.1 `secp256r1`; RFC 5758 §3.2
/// `ecdsa-with-SHA256`.
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
/// RFC 5280 §4.2.1.12 `id-kp-serverAuth`, `id-kp-clientAuth`.
const SERVER_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.1");
const CLIENT_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.2");

/// A certificate signature algorithm of the tests and the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alg {
    EcdsaP256,
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

impl Alg {
    pub const ALL: [Alg; 4] = [Alg::EcdsaP256, Alg::MlDsa44, Alg::MlDsa65, Alg::MlDsa87];
    pub const ML_DSA: [Alg; 3] = [Alg::MlDsa44, Alg::MlDsa65, Alg::MlDsa87];

    pub fn name(self) -> &'static str {
        match self {
            Alg::EcdsaP256 => "ECDSA-P256",
            Alg::MlDsa44 => "ML-DSA-44",
            Alg::MlDsa65 => "ML-DSA-65",
            Alg::MlDsa87 => "ML-DSA-87",
        }
    }

    /// The TLS SignatureScheme (RFC 8446 §4.2.3, draft-ietf-tls-mldsa §2).
    pub fn scheme(self) -> rustls::SignatureScheme {
        use rustls::SignatureScheme as S;
        match self {
            Alg::EcdsaP256 => S::ECDSA_NISTP256_SHA256,
            Alg::MlDsa44 => S::ML_DSA_44,
            Alg::MlDsa65 => S::ML_DSA_65,
            Alg::MlDsa87 => S::ML_DSA_87,
        }
    }

    /// The certificate signature's AlgorithmIdentifier: RFC 9881 §2 (ML-DSA,
    /// parameters absent) or RFC 5758 §3.2 (ECDSA with SHA-256).
    pub fn signature_oid(self) -> ObjectIdentifier {
        match self {
            Alg::EcdsaP256 => ECDSA_WITH_SHA256,
            Alg::MlDsa44 => pqdr_mldsa::ML_DSA_44_OID,
            Alg::MlDsa65 => pqdr_mldsa::ML_DSA_65_OID,
            Alg::MlDsa87 => pqdr_mldsa::ML_DSA_87_OID,
        }
    }
}

/// A key pair of one algorithm: its PKCS#8 private key, its DER
/// SubjectPublicKeyInfo, and a signing function for certificates.
pub struct Key {
    pub alg: Alg,
    pub pkcs8: Vec<u8>,
    pub spki: Vec<u8>,
    sign: SignFn,
}

/// Signs a TBSCertificate.
type SignFn = Box<dyn Fn(&[u8]) -> Vec<u8> + Send + Sync>;

/// An ML-DSA key pair of set `P` from the 32-byte seed `seed` (FIPS 204
/// Algorithm 1 with ξ = seed), its PKCS#8 the RFC 9881 seed form.
fn mldsa_key<P: ParameterSet>(alg: Alg, seed: [u8; 32]) -> Key {
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&seed);
    let mut buf = vec![0u8; 64];
    let pkcs8 = sk
        .to_private_key_der(PrivateKeyForm::Seed, &mut buf)
        .expect("PKCS#8")
        .to_vec();
    let mut buf = vec![0u8; P::VK_SIZE + 32];
    let spki = vk.to_spki_der(&mut buf).expect("SPKI").to_vec();
    Key {
        alg,
        pkcs8,
        spki,
        sign: Box::new(move |msg| {
            // Pure ML-DSA, empty context (RFC 9881 §3), deterministic.
            let sig = sk.sign_deterministic(msg, &[]).expect("sign");
            sig.as_bytes().as_ref().to_vec()
        }),
    }
}

impl Key {
    /// A fresh key (ECDSA from ring's generator) or one from `seed` (ML-DSA).
    pub fn new(alg: Alg, seed: u8) -> Self {
        let seed = [seed; 32];
        match alg {
            Alg::EcdsaP256 => {
                let rng = SystemRandom::new();
                let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng)
                    .expect("ECDSA key")
                    .as_ref()
                    .to_vec();
                let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &pkcs8, &rng)
                    .expect("ECDSA key");
                let spki = SubjectPublicKeyInfoOwned {
                    algorithm: AlgorithmIdentifierOwned {
                        oid: ID_EC_PUBLIC_KEY,
                        parameters: Some(Any::from(&SECP256R1)),
                    },
                    subject_public_key: BitString::from_bytes(pair.public_key().as_ref())
                        .expect("bits"),
                }
                .to_der()
                .expect("SPKI");
                Key {
                    alg,
                    pkcs8,
                    spki,
                    sign: Box::new(move |msg| {
                        pair.sign(&SystemRandom::new(), msg)
                            .expect("ECDSA")
                            .as_ref()
                            .to_vec()
                    }),
                }
            }
            Alg::MlDsa44 => mldsa_key::<MlDsa44>(alg, seed),
            Alg::MlDsa65 => mldsa_key::<MlDsa65>(alg, seed),
            Alg::MlDsa87 => mldsa_key::<MlDsa87>(alg, seed),
        }
    }

    pub fn private_key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.pkcs8.clone()))
    }
}

/// The issuer's side of `x509-cert`'s builder: the signing function, the
/// issuer's SPKI (for the authority key identifier) and the signature
/// AlgorithmIdentifier written into the certificate (normally the key's).
struct Issuer<'a> {
    key: &'a Key,
    signature_oid: ObjectIdentifier,
}

#[derive(Clone)]
struct Spki(Vec<u8>);

impl EncodePublicKey for Spki {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        Ok(Document::try_from(self.0.as_slice())?)
    }
}

impl signature::Keypair for Issuer<'_> {
    type VerifyingKey = Spki;
    fn verifying_key(&self) -> Spki {
        Spki(self.key.spki.clone())
    }
}

impl DynSignatureAlgorithmIdentifier for Issuer<'_> {
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        Ok(AlgorithmIdentifierOwned {
            oid: self.signature_oid,
            parameters: None,
        })
    }
}

struct Sig(Vec<u8>);

impl SignatureBitStringEncoding for Sig {
    fn to_bitstring(&self) -> der::Result<BitString> {
        BitString::from_bytes(&self.0)
    }
}

impl signature::Signer<Sig> for Issuer<'_> {
    fn try_sign(&self, msg: &[u8]) -> Result<Sig, signature::Error> {
        Ok(Sig((self.key.sign)(msg)))
    }
}

/// The extensions of a test certificate: a CA (basicConstraints CA, key
/// usage keyCertSign) or a leaf for `localhost` usable by a server and a
/// client (digitalSignature, serverAuth + clientAuth, RFC 5280 §4.2.1).
struct Profile {
    issuer: Name,
    subject: Name,
    ca: bool,
}

fn extension<T: Encode + der::oid::AssociatedOid>(value: &T, critical: bool) -> Extension {
    Extension {
        extn_id: T::OID,
        critical,
        extn_value: OctetString::new(value.to_der().expect("DER")).expect("octets"),
    }
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        _spk: SubjectPublicKeyInfoRef<'_>,
        _issuer_spk: SubjectPublicKeyInfoRef<'_>,
        _tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let basic = BasicConstraints {
            ca: self.ca,
            path_len_constraint: None,
        };
        let mut exts = vec![extension(&basic, true)];
        if self.ca {
            let usage = KeyUsage(KeyUsages::KeyCertSign | KeyUsages::CRLSign);
            exts.push(extension(&usage, true));
        } else {
            exts.push(extension(
                &KeyUsage(KeyUsages::DigitalSignature.into()),
                true,
            ));
            let san = SubjectAltName(vec![GeneralName::DnsName(
                Ia5String::new("localhost").expect("name"),
            )]);
            exts.push(extension(&san, false));
            let eku = ExtendedKeyUsage(vec![SERVER_AUTH, CLIENT_AUTH]);
            exts.push(extension(&eku, false));
        }
        Ok(exts)
    }
}

/// A certificate for `subject_spki`, signed by `issuer` writing
/// `signature_oid` as the algorithm.
fn certificate(
    issuer: &Key,
    issuer_name: &str,
    subject_spki: &[u8],
    subject_name: &str,
    ca: bool,
    serial: u32,
    signature_oid: ObjectIdentifier,
) -> CertificateDer<'static> {
    let profile = Profile {
        issuer: Name::from_str(issuer_name).expect("name"),
        subject: Name::from_str(subject_name).expect("name"),
        ca,
    };
    let builder = CertificateBuilder::new(
        profile,
        SerialNumber::from(serial),
        Validity::from_now(Duration::from_secs(24 * 3600)).expect("validity"),
        SubjectPublicKeyInfoOwned::from_der(subject_spki).expect("SPKI"),
    )
    .expect("builder");
    let signer = Issuer {
        key: issuer,
        signature_oid,
    };
    let cert = builder.build::<_, Sig>(&signer).expect("certificate");
    CertificateDer::from(cert.to_der().expect("DER"))
}

const CA_NAME: &str = "CN=pqdr-rustls test CA";

/// A CA and two leaves (server, client) of one algorithm.
pub struct Pki {
    pub alg: Alg,
    pub ca_key: Key,
    pub ca: CertificateDer<'static>,
    pub server_key: Key,
    pub server: CertificateDer<'static>,
    pub client_key: Key,
    pub client: CertificateDer<'static>,
}

impl Pki {
    pub fn new(alg: Alg) -> Self {
        let ca_key = Key::new(alg, 1);
        let server_key = Key::new(alg, 2);
        let client_key = Key::new(alg, 3);
        let oid = alg.signature_oid();
        let ca = certificate(&ca_key, CA_NAME, &ca_key.spki, CA_NAME, true, 1, oid);
        let server = certificate(
            &ca_key,
            CA_NAME,
            &server_key.spki,
            "CN=localhost",
            false,
            2,
            oid,
        );
        let client = certificate(
            &ca_key,
            CA_NAME,
            &client_key.spki,
            "CN=client",
            false,
            3,
            oid,
        );
        Pki {
            alg,
            ca_key,
            ca,
            server_key,
            server,
            client_key,
            client,
        }
    }

    /// A leaf certificate for `spki` signed by this CA, with `signature_oid`
    /// written as its signature algorithm (a test may lie).
    pub fn leaf(&self, spki: &[u8], signature_oid: ObjectIdentifier) -> CertificateDer<'static> {
        certificate(
            &self.ca_key,
            CA_NAME,
            spki,
            "CN=localhost",
            false,
            9,
            signature_oid,
        )
    }

    /// A CA certificate (this CA's name, self-signed by its key) carrying
    /// `spki` instead of the CA's own key.
    pub fn ca_with_spki(&self, spki: &[u8]) -> CertificateDer<'static> {
        let oid = self.alg.signature_oid();
        certificate(&self.ca_key, CA_NAME, spki, CA_NAME, true, 1, oid)
    }

    pub fn roots(&self) -> RootCertStore {
        roots(&self.ca)
    }
}

pub fn roots(ca: &CertificateDer<'static>) -> RootCertStore {
    let mut roots = RootCertStore::empty();
    roots.add(ca.clone()).expect("CA");
    roots
}

/// A TLS 1.3 server presenting `chain` with `key`, requiring a client
/// certificate from `client_roots` when given (mutual authentication).
pub fn server(
    provider: Arc<CryptoProvider>,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    client_roots: Option<RootCertStore>,
) -> Result<Arc<ServerConfig>, rustls::Error> {
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])?;
    let builder = match client_roots {
        Some(roots) => builder.with_client_cert_verifier(
            WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| rustls::Error::General(e.to_string()))?,
        ),
        None => builder.with_no_client_auth(),
    };
    Ok(Arc::new(builder.with_single_cert(chain, key)?))
}

/// A TLS 1.3 client trusting `roots`, presenting `auth` (chain and key)
/// when given.
pub fn client(
    provider: Arc<CryptoProvider>,
    roots: RootCertStore,
    auth: Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>,
) -> Result<Arc<ClientConfig>, rustls::Error> {
    let builder = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_root_certificates(roots);
    Ok(Arc::new(match auth {
        Some((chain, key)) => builder.with_client_auth_cert(chain, key)?,
        None => builder.with_no_client_auth(),
    }))
}

impl Pki {
    /// Mutual authentication: the server's certificate and key, the
    /// client's certificate and key, each side trusting this CA (the chain
    /// sent is the leaf alone; the CA is the trust anchor).
    pub fn mutual(&self, provider: Arc<CryptoProvider>) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
        let s = server(
            provider.clone(),
            vec![self.server.clone()],
            self.server_key.private_key(),
            Some(self.roots()),
        )
        .expect("server config");
        let c = client(
            provider,
            self.roots(),
            Some((vec![self.client.clone()], self.client_key.private_key())),
        )
        .expect("client config");
        (c, s)
    }
}
