//! The `katkem` / `katsign` command-line behaviour: writing, checking, and the
//! error paths (missing file, malformed record, unknown algorithm, tampering).

use pqdr_suite::nist_rsp::cli::{Family, Outcome, run};

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_string()).collect()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pqdr-kat-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn kem(a: &[&str]) -> Outcome {
    run(Family::Kem, &args(a))
}

#[test]
fn kem_write_then_check_then_detect_tampering() {
    let req = tmp("k.req");
    let rsp = tmp("k.rsp");
    let _ = std::fs::remove_file(&req);
    let (req_s, rsp_s) = (req.to_str().expect("utf8"), rsp.to_str().expect("utf8"));
    let o = kem(&["ml-kem-768", "--records", "3", req_s, rsp_s]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.stdout.contains("3 records"), "{o:?}");
    let text = std::fs::read_to_string(&rsp).expect("rsp written");
    assert!(text.starts_with("# ML-KEM-768\n\ncount = 0\nseed = 061550234D158C5E"));

    let o = kem(&["ml-kem-768", rsp_s]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.stdout.contains("3 records checked"), "{o:?}");

    // Flip one hex digit of the second record's shared secret.
    let pos = text.match_indices("ss = ").nth(1).expect("ss").0 + 5;
    let mut bytes = text.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    std::fs::write(&rsp, &bytes).expect("write");
    let o = kem(&["ml-kem-768", rsp_s]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.stderr.contains("count = 1: `ss` differs"), "{o:?}");
}

#[test]
fn kem_error_paths() {
    let o = kem(&["no-such-alg", "x.rsp"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("unknown algorithm `no-such-alg`") && o.stderr.contains("ml-kem-768")
    );

    let o = kem(&["ml-kem-768", "/nonexistent/dir/file.rsp"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("cannot read"), "{o:?}");

    let bad = tmp("bad.rsp");
    std::fs::write(&bad, "# ML-KEM-768\n\ncount = 0\nseed = ZZ\n\n").expect("write");
    let o = kem(&["ml-kem-768", bad.to_str().expect("utf8")]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.stderr.contains("`seed`"), "{o:?}");

    std::fs::write(&bad, "count = 0\nno equals sign here\n").expect("write");
    let o = kem(&["ml-kem-768", bad.to_str().expect("utf8")]);
    assert_eq!(o.code, 2, "{o:?}");
    assert!(o.stderr.contains("malformed record: line 2"), "{o:?}");

    assert_eq!(kem(&[]).code, 2);
    assert_eq!(kem(&["--records", "0", "a", "b"]).code, 2);
    assert!(kem(&["--list"]).stdout.lines().any(|l| l == "ml-kem-512"));
}
