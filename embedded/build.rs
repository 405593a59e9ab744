//! memory.x for QEMU's mps2-an386 (4 MB SSRAM1 for code at 0, 4 MB SSRAM2/3 for
//! data at 0x2000_0000), and the expected KAT digests from vectors/kat-checksums.json
//! (`stored_file.single_sha256` / `official_round3_rsp.single_sha256`: SHA-256
//! of the first record of the NIST / NTRU Prime round-3 `.rsp`).
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    fs::write(
        out.join("memory.x"),
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4M\n  RAM : ORIGIN = 0x20000000, LENGTH = 4M\n}\n",
    )
    .expect("memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=build.rs");

    let sums = "../vectors/kat-checksums.json";
    println!("cargo:rerun-if-changed={sums}");
    let text = fs::read_to_string(sums).expect("vectors/kat-checksums.json");
    let mut rs = String::new();
    for (ident, name, object) in [
        ("ML_KEM_512", "ML-KEM-512", "stored_file"),
        ("ML_KEM_768", "ML-KEM-768", "stored_file"),
        ("ML_KEM_1024", "ML-KEM-1024", "stored_file"),
        ("ML_DSA_44", "ML-DSA-44", "stored_file"),
        ("ML_DSA_65", "ML-DSA-65", "stored_file"),
        ("ML_DSA_87", "ML-DSA-87", "stored_file"),
        ("SNTRUP653", "sntrup653", "official_round3_rsp"),
        ("SNTRUP761", "sntrup761", "official_round3_rsp"),
        ("SNTRUP857", "sntrup857", "official_round3_rsp"),
        ("SNTRUP953", "sntrup953", "official_round3_rsp"),
        ("SNTRUP1013", "sntrup1013", "official_round3_rsp"),
        ("SNTRUP1277", "sntrup1277", "official_round3_rsp"),
        ("MCELIECE348864", "mceliece348864", ""),
        ("MCELIECE460896", "mceliece460896", ""),
    ] {
        rs.push_str(&format!(
            "pub const {ident}: &str = \"{}\";\n",
            single_sha256(&text, name, object)
        ));
    }
    fs::write(out.join("kat_sums.rs"), rs).expect("kat_sums.rs");
}

/// `json[name][object]["single_sha256"]`, or `json[name]["round4_pqclean_nistkat_sha256"]`
/// when `object` is empty (McEliece), found textually (the file's layout is
/// fixed; a missing or malformed entry fails the build).
fn single_sha256(json: &str, name: &str, object: &str) -> String {
    let at = json
        .find(&format!("\"{name}\": {{"))
        .unwrap_or_else(|| panic!("{name} missing from kat-checksums.json"));
    let mut rest = &json[at..];
    let key = if object.is_empty() {
        "\"round4_pqclean_nistkat_sha256\": \""
    } else {
        let sf = rest
            .find(&format!("\"{object}\""))
            .unwrap_or_else(|| panic!("{name}.{object} missing"));
        rest = &rest[sf..];
        "\"single_sha256\": \""
    };
    let k = rest.find(key).expect("single_sha256") + key.len();
    let hex = &rest[k..k + 64];
    assert!(
        hex.bytes().all(|b| b.is_ascii_hexdigit()),
        "bad digest for {name}"
    );
    hex.to_ascii_lowercase()
}
