//! The main demo: Alice and Bob agree on a key with every enabled KEM (and sign
//! with every enabled signature scheme), printing sizes and who computes what.
//!
//! `cargo run --release --example basic`

use rand_core::UnwrapErr;

fn hex_prefix(b: &[u8]) -> String {
    b.iter()
        .take(8)
        .map(|x| format!("{x:02x}"))
        .collect::<String>()
        + "…"
}

#[cfg(feature = "mlkem")]
fn mlkem_demo(rng: &mut UnwrapErr<getrandom::SysRng>) {
    macro_rules! demo {
        ($name:literal, $k:ident) => {{
            use pqdr_suite::mlkem::$k as k;
            println!("== {} ==", $name);
            // Alice: key generation; she keeps dk and publishes ek.
            let (dk, ek) = k::generate(rng);
            println!(
                "Alice  generates a key pair: encapsulation key {} B (sent to Bob), decapsulation key {} B (kept)",
                k::ENCAPSULATION_KEY_SIZE,
                k::DECAPSULATION_KEY_SIZE
            );
            // Bob: parses Alice's key (FIPS 203 §7.2 check) and encapsulates to it.
            let ek = k::EncapsulationKey::from_slice(ek.as_bytes()).expect("Alice's key passes the modulus check");
            let (ct, bob_ss) = ek.encapsulate(rng);
            println!("Bob    encapsulates:        ciphertext {} B (sent to Alice), shared secret {}", k::CIPHERTEXT_SIZE, hex_prefix(bob_ss.as_bytes()));
            // Alice: decapsulates the ciphertext.
            let alice_ss = dk.decapsulate(&ct);
            println!("Alice  decapsulates:        shared secret {}", hex_prefix(alice_ss.as_bytes()));
            assert_eq!(alice_ss.as_bytes(), bob_ss.as_bytes(), "shared secrets must agree");
            println!("       both hold the same {}-byte secret\n", pqdr_suite::mlkem::SHARED_SECRET_SIZE);
        }};
    }
    demo!("ML-KEM-512 (FIPS 203, category 1)", ml_kem_512);
    demo!("ML-KEM-768 (FIPS 203, category 3)", ml_kem_768);
    demo!("ML-KEM-1024 (FIPS 203, category 5)", ml_kem_1024);
}

#[cfg(feature = "mldsa")]
fn mldsa_demo(rng: &mut UnwrapErr<getrandom::SysRng>) {
    macro_rules! demo {
        ($name:literal, $s:ident) => {{
            use pqdr_suite::mldsa::$s as s;
            println!("== {} ==", $name);
            // Alice: key generation (FIPS 204 Algorithm 1); she keeps sk, publishes vk.
            let (sk, vk) = s::generate(rng);
            println!(
                "Alice  generates a key pair: verifying key {} B (published), signing key {} B (kept; 32-byte seed form available)",
                s::VERIFYING_KEY_SIZE,
                s::SIGNING_KEY_SIZE
            );
            // Alice: hedged signature with a context string (Algorithm 2).
            let (msg, ctx) = (b"meet at noon", b"pqdr demo");
            let sig = sk.sign(msg, ctx, rng).expect("context is at most 255 bytes");
            println!("Alice  signs:               signature {} B {}", s::SIGNATURE_SIZE, hex_prefix(sig.as_bytes()));
            // Bob: parses Alice's key and the signature bytes, then verifies (Algorithm 3).
            let vk = s::VerifyingKey::from_array(vk.as_bytes());
            let sig = s::Signature::from_array(sig.as_bytes());
            vk.verify(msg, ctx, &sig).expect("Alice's signature verifies");
            assert!(vk.verify(b"meet at one", ctx, &sig).is_err(), "tampered message must fail");
            assert!(vk.verify(msg, b"other", &sig).is_err(), "other context must fail");
            println!("Bob    verifies: ok; a changed message or context is rejected\n");
        }};
    }
    demo!("ML-DSA-44 (FIPS 204, category 2)", ml_dsa_44);
    demo!("ML-DSA-65 (FIPS 204, category 3)", ml_dsa_65);
    demo!("ML-DSA-87 (FIPS 204, category 5)", ml_dsa_87);
}

#[cfg(feature = "ntrup")]
fn ntrup_demo(rng: &mut UnwrapErr<getrandom::SysRng>) {
    use pqdr_suite::ntrup::sntrup761 as k;
    println!("== sntrup761 (Streamlined NTRU Prime round 3, as in OpenSSH's sntrup761x25519) ==");
    // Alice keeps dk and sends ek.
    let (dk, ek) = k::generate(rng);
    println!(
        "Alice  generates a key pair: encapsulation key {} B (sent to Bob)",
        k::ENCAPSULATION_KEY_SIZE
    );
    // Bob parses the key and encapsulates.
    let ek = k::EncapsulationKey::from_slice(ek.as_bytes()).expect("right length");
    let (ct, bob_ss) = ek.encapsulate(rng);
    println!(
        "Bob    encapsulates:        ciphertext {} B (sent to Alice), shared secret {}",
        k::CIPHERTEXT_SIZE,
        hex_prefix(bob_ss.as_bytes())
    );
    // Alice decapsulates (implicit rejection: a bad ciphertext gives a random-looking key).
    let alice_ss = dk.decapsulate(&k::Ciphertext::from_slice(ct.as_bytes()).expect("right length"));
    println!(
        "Alice  decapsulates:        shared secret {}",
        hex_prefix(alice_ss.as_bytes())
    );
    assert_eq!(
        alice_ss.as_bytes(),
        bob_ss.as_bytes(),
        "shared secrets must agree"
    );
    println!();
}

fn main() {
    let mut rng = UnwrapErr(getrandom::SysRng);
    #[cfg(feature = "mlkem")]
    mlkem_demo(&mut rng);
    #[cfg(feature = "mldsa")]
    mldsa_demo(&mut rng);
    #[cfg(feature = "ntrup")]
    ntrup_demo(&mut rng);
    let _ = &mut rng;
    println!("all demos agree");
}
