//! Live interoperability with Go's `crypto/hpke` (Go ≥ 1.26, standard
//! library only): `interop/go/hpke` is built once, then run twice in batch.
//!
//! 1. Go seals to a pqdr key of every KEM, for every KDF × AEAD Go supports
//!    (6 × 5 × 4 = 120 suites; Go's HPKE has the base mode only); pqdr opens
//!    both messages, checks that a modified ciphertext is refused, and
//!    compares the two exported secrets with Go's.
//! 2. pqdr seals to a Go key of every KEM, for the same 120 suites; Go opens,
//!    refuses a modified ciphertext, and compares the exported secrets.
//!
//! Without `go` on `PATH` the test says so and passes (CI has Go).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pqdr_hpke::{Aead, Kdf, Kem, PrivateKey, PublicKey, Recipient, Sender, Suite};

const INFO: &[u8] = b"pqdr-hpke interop info";
const AADS: [&[u8]; 2] = [b"aad 0", b""];
const EXP_CTX: [&[u8]; 2] = [b"pqdr exporter 0", b""];
const EXP_LEN: [usize; 2] = [32, 100];

fn pts() -> [Vec<u8>; 2] {
    [b"message 0 from the sender".to_vec(), vec![0xA5; 1000]]
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn id(s: &str) -> u16 {
    u16::from_str_radix(s, 16).expect("identifier")
}

fn go_binary() -> Option<PathBuf> {
    if Command::new("go").arg("version").output().is_err() {
        eprintln!(
            "SKIPPED: `go` is not on PATH; the Go crypto/hpke interoperability test needs Go >= 1.26"
        );
        return None;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../interop/go");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pqdr-hpke-go-interop");
    let status = Command::new("go")
        .current_dir(&dir)
        .args(["build", "-o"])
        .arg(&out)
        .arg("./hpke")
        .status()
        .expect("go build");
    assert!(status.success(), "go build ./hpke failed");
    Some(out)
}

fn run(bin: &Path, mode: &str, input: &str) -> String {
    let mut child = Command::new(bin)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the Go program");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("Go program output");
    assert!(out.status.success(), "Go program `{mode}` failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn go_crypto_hpke_both_directions() {
    let Some(bin) = go_binary() else { return };
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    let pts = pts();

    // Direction 1: Go seals to our keys.
    let keys: Vec<PrivateKey> = Kem::ALL
        .iter()
        .map(|&k| PrivateKey::generate(k, &mut rng).expect("generate"))
        .collect();
    let input: String = keys
        .iter()
        .map(|k| {
            format!(
                "pk {:04x} {}\n",
                k.kem().id(),
                hex(k.public_key().as_bytes())
            )
        })
        .collect();
    let output = run(&bin, "seal", &input);

    let mut opened = 0;
    let mut go_keys = Vec::new();
    for line in output.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        if f[0] == "key" {
            go_keys.push((
                Kem::from_id(id(f[1])).expect("kem"),
                unhex(f[2]),
                unhex(f[3]),
            ));
            continue;
        }
        assert_eq!(f[0], "sealed");
        assert_eq!(f.len(), 9, "{line}");
        let suite = Suite::from_ids(id(f[1]), id(f[2]), id(f[3])).expect("suite");
        let sk = keys.iter().find(|k| k.kem() == suite.kem).expect("key");
        let mut r = Recipient::new(&suite, sk, &unhex(f[4]), INFO, None).expect("decap Go's enc");
        for i in 0..2 {
            if suite.aead == Aead::ExportOnly {
                assert_eq!(f[5 + i], "-");
                continue;
            }
            let ct = unhex(f[5 + i]);
            if i == 0 {
                let mut bad = ct.clone();
                bad[3] ^= 0x10;
                assert_eq!(
                    r.open_to_vec(AADS[i], &bad),
                    Err(pqdr_hpke::Error::Open),
                    "{suite:?}"
                );
            }
            assert_eq!(
                r.open_to_vec(AADS[i], &ct).expect("open Go's ct"),
                pts[i],
                "{suite:?}"
            );
        }
        for i in 0..2 {
            let mut e = vec![0u8; EXP_LEN[i]];
            r.export(EXP_CTX[i], &mut e).expect("export");
            assert_eq!(hex(&e), f[7 + i], "{suite:?}: exported secret {i}");
        }
        opened += 1;
    }
    assert_eq!(opened, Kem::ALL.len() * Kdf::ALL.len() * Aead::ALL.len());
    assert_eq!(go_keys.len(), Kem::ALL.len());

    // Direction 2: we seal to Go's keys.
    let mut input = String::new();
    for (kem, sk, pk) in &go_keys {
        let pk = PublicKey::from_bytes(*kem, pk).expect("Go's public key");
        // Go's private key bytes are ours too: the same public key.
        let ours = PrivateKey::from_bytes(*kem, sk).expect("Go's private key");
        assert_eq!(ours.public_key(), &pk, "{kem:?}");
        for kdf in Kdf::ALL {
            for aead in Aead::ALL {
                let suite = Suite {
                    kem: *kem,
                    kdf,
                    aead,
                };
                let (enc, mut s) = Sender::new(&suite, &pk, INFO, None, &mut rng).expect("encap");
                let mut line = format!(
                    "open {:04x} {:04x} {:04x} {} {}",
                    kem.id(),
                    kdf.id(),
                    aead.id(),
                    hex(sk),
                    hex(enc.as_bytes())
                );
                for i in 0..2 {
                    if aead == Aead::ExportOnly {
                        line.push_str(" -");
                    } else {
                        line.push(' ');
                        line.push_str(&hex(&s.seal_to_vec(AADS[i], &pts[i]).expect("seal")));
                    }
                }
                for i in 0..2 {
                    let mut e = vec![0u8; EXP_LEN[i]];
                    s.export(EXP_CTX[i], &mut e).expect("export");
                    line.push(' ');
                    line.push_str(&hex(&e));
                }
                input.push_str(&line);
                input.push('\n');
            }
        }
    }
    let output = run(&bin, "open", &input);
    let lines: Vec<&str> = output.lines().collect();
    let fails: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("ok ")).collect();
    assert!(fails.is_empty(), "Go refused: {fails:?}");
    assert_eq!(
        lines.len(),
        Kem::ALL.len() * Kdf::ALL.len() * Aead::ALL.len()
    );
}
