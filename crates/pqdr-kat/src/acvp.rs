//! Loading the NIST ACVP JSON vectors from `vectors/acvp/` (plain or `.gz`).

pub use serde_json::Value;

/// Loads `vectors/acvp/<folder>/<file>` (or its `.gz` twin).
///
/// # Panics
/// If the file is missing or not JSON (a test setup error).
pub fn load(folder: &str, file: &str) -> Value {
    let path = crate::vectors_dir().join("acvp").join(folder).join(file);
    let bytes = crate::read_maybe_gz(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: bad JSON: {e}", path.display()))
}

/// The `testGroups` array of a vector file.
///
/// # Panics
/// If the file has no `testGroups` array.
pub fn groups(v: &Value) -> &[Value] {
    v["testGroups"].as_array().expect("testGroups")
}

/// The `tests` array of a group.
///
/// # Panics
/// If the group has no `tests` array.
pub fn tests(group: &Value) -> &[Value] {
    group["tests"].as_array().expect("tests")
}

/// A string field (`""` when absent).
pub fn str_field<'a>(v: &'a Value, name: &str) -> &'a str {
    v[name].as_str().unwrap_or("")
}

/// A hex field decoded to bytes.
///
/// # Panics
/// If the field is missing or not hex.
pub fn hex_field(v: &Value, name: &str) -> Vec<u8> {
    let s = v[name]
        .as_str()
        .unwrap_or_else(|| panic!("missing hex field `{name}` in {v}"));
    crate::hex::decode(s).unwrap_or_else(|| panic!("field `{name}` is not hex"))
}

/// A hex field decoded to a fixed-size array.
///
/// # Panics
/// If the field is missing, not hex, or of another length.
pub fn hex_array<const N: usize>(v: &Value, name: &str) -> [u8; N] {
    let b = hex_field(v, name);
    let len = b.len();
    b.try_into()
        .unwrap_or_else(|_| panic!("field `{name}` has {len} bytes, expected {N}"))
}

/// Expected results joined by `tcId` (for the sigGen `prompt` + `expectedResults` pair).
pub fn results_by_tcid(expected: &Value) -> std::collections::HashMap<u64, &Value> {
    let mut map = std::collections::HashMap::new();
    for g in groups(expected) {
        for t in tests(g) {
            if let Some(id) = t["tcId"].as_u64() {
                map.insert(id, t);
            }
        }
    }
    map
}
