//! The erasure decoder on arbitrary symbol streams (no panic), and genuine
//! symbols at fuzzer-chosen indices always decode to the blob.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::codec::{Decoder, encode_symbol, symbol_count};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let len = usize::from(u16::from_be_bytes([data[0], data[1]])) % 4097;
    let sym_len = 16 + usize::from(data[2]) * 4;
    let rest = &data[3..];
    // 1. Arbitrary symbols.
    let mut d = Decoder::new();
    d.reset(len.max(1));
    let mut i = 0;
    while i + 2 < rest.len() {
        let (k, idx) = (rest[i], rest[i + 1]);
        let n = (usize::from(rest[i + 2]) * 8).min(rest.len() - i - 3);
        d.add(k, n, idx, &rest[i + 3..i + 3 + n]);
        i += 3 + n;
    }
    let mut out = vec![0u8; 4096];
    let _ = d.decode(&mut out);
    // 2. Genuine symbols: any k distinct indices decode.
    let Some(k) = symbol_count(len, sym_len) else {
        return;
    };
    let blob: Vec<u8> = (0..len)
        .map(|j| rest.get(j % rest.len()).copied().unwrap_or(0) ^ j as u8)
        .collect();
    let mut d = Decoder::new();
    d.reset(len);
    let mut sym = vec![0u8; sym_len];
    // A fuzzer-driven permutation of the 255 indices (Fisher–Yates).
    let mut order: Vec<u8> = (0..=254).collect();
    for i in (1..order.len()).rev() {
        let r = usize::from(rest[i % rest.len()]) + i;
        order.swap(i, r % (i + 1));
    }
    let mut got = 0;
    for &idx in &order {
        encode_symbol(&blob, sym_len, idx, &mut sym).expect("valid arguments");
        got += 1;
        if d.add(k, sym_len, idx, &sym) {
            break;
        }
    }
    assert_eq!(got, usize::from(k));
    let mut out = vec![0u8; len];
    assert!(d.decode(&mut out));
    assert_eq!(out, blob);
});
