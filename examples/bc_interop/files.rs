//! Files of the exchange directory, the check report and the shared
//! randomness stream (the same as the Java side's `Io`).

use std::path::Path;

use shake::{ExtendableOutput, Shake256, Shake256Reader, Update, XofReader};

/// Errors of the example: I/O, a key or DER the crate refused, a length.
pub(crate) type Error = Box<dyn core::error::Error>;
/// The example's result type.
pub(crate) type Result<T> = core::result::Result<T, Error>;

/// Direction of every check this program runs: the files were written by BouncyCastle.
const DIRECTION: &str = "bc->pqdr";

pub(crate) fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}").into())
}

pub(crate) fn write(dir: &Path, name: &str, data: &[u8]) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    Ok(std::fs::write(dir.join(name), data)?)
}

/// `N` bytes from the operating system.
pub(crate) fn random<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    getrandom::fill(&mut out).expect("the OS random source works");
    out
}

/// The file `name` in `dir` as an `N`-byte array.
pub(crate) fn read_array<const N: usize>(dir: &Path, name: &str) -> Result<[u8; N]> {
    let v = read(dir, name)?;
    v.as_slice()
        .try_into()
        .map_err(|_| format!("{name}: {} bytes, expected {N}", v.len()).into())
}

/// A copy of `data` with bit 0 of byte `i` flipped.
pub(crate) fn flip(data: &[u8], i: usize) -> Vec<u8> {
    let mut out = data.to_vec();
    out[i] ^= 1;
    out
}

/// Counts the checks and prints one line each.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
}

impl Report {
    /// Runs one check: `ok|FAIL <set> bc->pqdr <what>`; an error is a failure.
    pub(crate) fn check(&mut self, set: &str, what: &str, f: impl FnOnce() -> Result<bool>) {
        let (ok, detail) = match f() {
            Ok(ok) => (ok, String::new()),
            Err(e) => (false, format!(" ({e})")),
        };
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        println!(
            "{} {set} {DIRECTION} {what}{detail}",
            if ok { "ok" } else { "FAIL" }
        );
    }
}

/// The randomness both sides feed to key generation / encapsulation where the
/// API takes no explicit seed: the SHAKE256 output stream of a 32-byte seed,
/// handed out in order whatever the sizes of the individual requests.
#[derive(Debug)]
pub(crate) struct StreamRng(Shake256Reader);

impl StreamRng {
    pub(crate) fn new(seed: &[u8]) -> Self {
        let mut h = Shake256::default();
        h.update(seed);
        Self(h.finalize_xof())
    }
}

impl rand_core::TryRng for StreamRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> core::result::Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.0.read(&mut b);
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> core::result::Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.0.read(&mut b);
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Self::Error> {
        self.0.read(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for StreamRng {}
