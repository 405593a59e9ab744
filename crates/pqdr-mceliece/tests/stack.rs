//! Peak stack of key generation, encapsulation and decapsulation for every
//! set, measured by painting (`pqdr_ctgrind::stack::peak`, on a thread of its own with
//! a 5 MiB stack); keys live on the heap. Prints a table (`--nocapture`) and checks the
//! budget of 348864 key generation (64 KiB of extra stack).

mod common;

use common::TestRng;
use pqdr_mceliece::{Buf, ParameterSet};

const DEPTH: usize = 4 << 20;

// `Send + Sync` key buffers: `peak` runs the closure on a thread of its own.
fn measure<P: ParameterSet>() -> (usize, usize, usize, usize)
where
    P::PkBytes: Send + Sync,
    P::SkBytes: Send + Sync,
    P::CtBytes: Send + Sync,
{
    let mut pk = P::PkBytes::boxed_zeroed();
    let mut sk = Box::new(P::SkBytes::zeroed());
    let mut ct = Box::new(P::CtBytes::zeroed());
    let mut rng = TestRng(11);
    let kg = pqdr_ctgrind::stack::peak(DEPTH, || {
        pqdr_mceliece::generate_deterministic_into::<P>(&mut pk, &mut sk, &[3u8; 32]);
    });
    let mut ss = None;
    let en = pqdr_ctgrind::stack::peak(DEPTH, || {
        ss = Some(pqdr_mceliece::encapsulate_into::<P, _>(
            &pk, &mut ct, &mut rng,
        ));
    });
    let mut ss2 = None;
    let de = pqdr_ctgrind::stack::peak(DEPTH, || {
        ss2 = Some(pqdr_mceliece::decapsulate::<P>(&sk, &ct));
    });
    assert!(ss == ss2);
    // Prepared decapsulation (the prepared key is built beforehand, on the heap).
    let dk = pqdr_mceliece::DecapsulationKey::<P>::from_slice((*sk).as_ref()).expect("sk");
    let prepared = Box::new(dk.prepare());
    let c = pqdr_mceliece::Ciphertext::<P>::from_slice((*ct).as_ref()).expect("ct");
    let mut ss3 = None;
    let dp = pqdr_ctgrind::stack::peak(DEPTH, || {
        ss3 = Some(prepared.decapsulate(&c));
    });
    assert!(ss == ss3);
    (kg, en, de, dp)
}

fn run() {
    let mut rows = Vec::new();
    macro_rules! row {
        ($($ty:ident),*) => {$(
            let (k, e, d, p) = measure::<pqdr_mceliece::$ty>();
            println!("{:18} keygen {:7} B  encaps {:6} B  decaps {:7} B  prepared decaps {:7} B",
                <pqdr_mceliece::$ty as ParameterSet>::NAME, k, e, d, p);
            rows.push((<pqdr_mceliece::$ty as ParameterSet>::NAME, k));
        )*};
    }
    row!(
        Mceliece348864,
        Mceliece348864f,
        Mceliece460896,
        Mceliece460896f,
        Mceliece6688128,
        Mceliece6688128f,
        Mceliece6960119,
        Mceliece6960119f,
        Mceliece8192128,
        Mceliece8192128f
    );
    let k348864 = rows.iter().find(|r| r.0 == "mceliece348864").map(|r| r.1);
    assert!(
        k348864.is_some_and(|k| k <= 64 * 1024),
        "348864 keygen stack {k348864:?}"
    );
}

#[test]
fn peak_stack() {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(run)
        .expect("thread")
        .join()
        .expect("join");
}
