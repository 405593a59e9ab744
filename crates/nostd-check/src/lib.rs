//! `no_std` build check: calls every primitive's key generation, encapsulation
//! and decapsulation (or signing) through the heap-free API.
#![no_std]

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {}
}

/// ML-KEM-512/768/1024: keygen, encaps, decaps; returns 1 if all shared secrets agree.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_mlkem(seed: &[u8; 64], m: &[u8; 32]) -> u32 {
    macro_rules! run {
        ($k:ident) => {{
            use pqdr_mlkem::$k as k;
            let d: [u8; 32] = seed[..32].try_into().unwrap_or([0; 32]);
            let z: [u8; 32] = seed[32..].try_into().unwrap_or([0; 32]);
            let (dk, ek) = k::generate_deterministic(&d, &z);
            let (ct, ss) = ek.encapsulate_deterministic(m);
            u32::from(dk.decapsulate(&ct).as_bytes() == ss.as_bytes())
        }};
    }
    run!(ml_kem_512) & run!(ml_kem_768) & run!(ml_kem_1024)
}
