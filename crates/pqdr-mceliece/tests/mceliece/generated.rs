//! Generated code is what its generator prints: `src/vec/mul.rs` (the
//! unrolled GF(2^12) and GF(2^13) bitsliced products) and
//! `src/arch/x86_64/mul.rs` (the same products on AVX2 registers) must equal
//! the output of `scripts/gen_mceliece_vec.py` (with `--avx2` for the
//! second), byte for byte. Needs `python3` (fails without it, as it is part
//! of the toolchain CI runs with).

use std::path::Path;
use std::process::Command;

#[test]
fn vec_mul_matches_its_generator() {
    check("src/vec/mul.rs", &[]);
}

#[test]
fn avx2_mul_matches_its_generator() {
    check("src/arch/x86_64/mul.rs", &["--avx2"]);
}

fn check(file: &str, args: &[&str]) {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = crate_dir.join("../../scripts/gen_mceliece_vec.py");
    let committed = crate_dir.join(file);
    let output = match Command::new("python3").arg(&script).args(args).output() {
        Ok(output) => output,
        Err(e) => panic!("cannot run python3 {}: {e}", script.display()),
    };
    assert!(
        output.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let committed = match std::fs::read(&committed) {
        Ok(bytes) => bytes,
        Err(e) => panic!("cannot read {}: {e}", committed.display()),
    };
    if output.stdout != committed {
        let line = output
            .stdout
            .split(|&b| b == b'\n')
            .zip(committed.split(|&b| b == b'\n'))
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        panic!(
            "{file} differs from the output of scripts/gen_mceliece_vec.py {args:?} \
             (first difference at line {line}, or in length); regenerate it with \
             `python3 scripts/gen_mceliece_vec.py {} > crates/pqdr-mceliece/{file}`",
            args.join(" ")
        );
    }
}
