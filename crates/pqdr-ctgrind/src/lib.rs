//! Valgrind memcheck client requests for constant-time testing ("ctgrind").
//!
//! [`classify`] marks bytes *undefined* (= secret): memcheck then reports every
//! branch (`Conditional jump or move depends on uninitialised value(s)`) and every
//! address computation (`Use of uninitialised value of size N`) that depends on
//! them. [`declassify`] marks bytes defined again (= public).
//!
//! Outside valgrind the magic instruction sequence is a no-op.
//!
//! Algorithm crates call [`hook::declassify`] at the points where the
//! specification lets a secret-derived value become public (rejection loops on
//! public seeds, key-generation retries). Those hooks compile to nothing unless
//! the build sets `RUSTFLAGS="--cfg pqct_valgrind"`, so production code carries
//! no `asm!`.
#![no_std]
#![allow(unsafe_code)]

const VG_USERREQ_TOOL_BASE_MC: usize = ((b'M' as usize) << 24) | ((b'C' as usize) << 16);
const MAKE_MEM_UNDEFINED: usize = VG_USERREQ_TOOL_BASE_MC + 1;
const MAKE_MEM_DEFINED: usize = VG_USERREQ_TOOL_BASE_MC + 2;
const RUNNING_ON_VALGRIND: usize = 0x1001;

#[inline(always)]
fn client_request(default: usize, args: &[usize; 6]) -> usize {
    #[allow(unused_mut)]
    let mut result = default;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the four `rol`s rotate rdi by 3+13+61+51 = 128 bits (the identity;
    // only flags change, and flags are not declared preserved) and `xchg rbx, rbx`
    // is a no-op, so natively this only reads `args`. Under valgrind the sequence is
    // intercepted and the request's result is written to rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above: four rotations by a total of 128 bits and `orr x10, x10, x10`
    // leave every register unchanged outside valgrind.
    unsafe {
        core::arch::asm!(
            "ror x12, x12, #3", "ror x12, x12, #13", "ror x12, x12, #51", "ror x12, x12, #61",
            "orr x10, x10, x10",
            inout("x3") result,
            in("x4") args.as_ptr(),
            options(nostack),
        );
    }
    let _ = args;
    result
}

/// Marks `data` as secret (memcheck: undefined).
///
/// Takes `&mut` so the compiler must assume the bytes changed and reload them.
#[inline(never)]
pub fn classify<T: ?Sized>(data: &mut T) {
    let p = core::ptr::from_mut(data).cast::<u8>() as usize;
    client_request(0, &[MAKE_MEM_UNDEFINED, p, size_of_val(data), 0, 0, 0]);
}

/// Marks `data` as public again (memcheck: defined).
///
/// Takes `&mut` so the compiler must reload the value from memory afterwards.
#[inline(never)]
pub fn declassify<T: ?Sized>(data: &mut T) {
    let p = core::ptr::from_mut(data).cast::<u8>() as usize;
    client_request(0, &[MAKE_MEM_DEFINED, p, size_of_val(data), 0, 0, 0]);
}

/// Declassifies a value and returns it.
#[inline(never)]
pub fn declassify_value<T: Copy>(mut v: T) -> T {
    declassify(&mut v);
    core::hint::black_box(v)
}

/// How many valgrind layers the program runs under (0 = native).
pub fn running_on_valgrind() -> usize {
    client_request(0, &[RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0])
}

/// Declassification hooks for algorithm crates.
///
/// Empty unless built with `--cfg pqct_valgrind`; call them where the
/// specification makes a secret-derived value public, with a comment saying why.
pub mod hook {
    /// Marks `data` public in a `--cfg pqct_valgrind` build; a no-op otherwise.
    #[inline(always)]
    pub fn declassify<T: ?Sized>(data: &mut T) {
        #[cfg(pqct_valgrind)]
        super::declassify(data);
        #[cfg(not(pqct_valgrind))]
        let _ = data;
    }
}

// Peak-stack measurement by painting (tests and benchmarks only): src/stack.rs.
#[cfg(all(
    feature = "stack-paint",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub mod stack;
