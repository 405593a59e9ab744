//! Stand-in for the `compiler_builtins` crate on thumbv7em-none-eabihf
//! (issue #20): the crates.io release does not build against this nightly.
//! Integer division, 64-bit shifts and soft double-precision float come from
//! Debian's `libgcc.a` (bundled into this rlib by scripts/cortex-m-sysroot.sh);
//! the memory functions, which libgcc leaves to the C library, are here.
#![no_std]
#![feature(compiler_builtins)]
#![compiler_builtins]
#![no_builtins]
#![allow(clippy::missing_safety_doc)]

const W: usize = core::mem::size_of::<usize>();

#[inline(always)]
unsafe fn copy_forward(d: *mut u8, s: *const u8, n: usize) {
    let mut i = 0;
    if (d as usize | s as usize) & (W - 1) == 0 {
        while i + W <= n {
            unsafe { *(d.add(i) as *mut usize) = *(s.add(i) as *const usize) };
            i += W;
        }
    }
    while i < n {
        unsafe { *d.add(i) = *s.add(i) };
        i += 1;
    }
}

#[inline(always)]
unsafe fn copy_backward(d: *mut u8, s: *const u8, n: usize) {
    let mut i = n;
    if (d as usize | s as usize | n) & (W - 1) == 0 {
        while i >= W {
            i -= W;
            unsafe { *(d.add(i) as *mut usize) = *(s.add(i) as *const usize) };
        }
    }
    while i > 0 {
        i -= 1;
        unsafe { *d.add(i) = *s.add(i) };
    }
}

#[inline(always)]
unsafe fn fill(d: *mut u8, c: u8, n: usize) {
    let mut i = 0;
    if (d as usize) & (W - 1) == 0 {
        let w = usize::from_ne_bytes([c; W]);
        while i + W <= n {
            unsafe { *(d.add(i) as *mut usize) = w };
            i += W;
        }
    }
    while i < n {
        unsafe { *d.add(i) = c };
        i += 1;
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcpy(d: *mut u8, s: *const u8, n: usize) -> *mut u8 {
    unsafe { copy_forward(d, s, n) };
    d
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn memmove(d: *mut u8, s: *const u8, n: usize) -> *mut u8 {
    if (d as usize).wrapping_sub(s as usize) >= n {
        unsafe { copy_forward(d, s, n) };
    } else {
        unsafe { copy_backward(d, s, n) };
    }
    d
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn memset(d: *mut u8, c: i32, n: usize) -> *mut u8 {
    unsafe { fill(d, c as u8, n) };
    d
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while i < n {
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    unsafe { memcmp(a, b, n) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn strlen(s: *const u8) -> usize {
    let mut n = 0;
    while unsafe { *s.add(n) } != 0 {
        n += 1;
    }
    n
}

// The ARM run-time ABI's memory helpers (RTABI §4.3.4); note the argument order
// of __aeabi_memset (dest, n, c).
macro_rules! aeabi {
    ($($cpy:ident, $mov:ident, $set:ident, $clr:ident;)*) => {$(
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $cpy(d: *mut u8, s: *const u8, n: usize) {
            unsafe { copy_forward(d, s, n) };
        }
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $mov(d: *mut u8, s: *const u8, n: usize) {
            unsafe { memmove(d, s, n) };
        }
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $set(d: *mut u8, n: usize, c: i32) {
            unsafe { fill(d, c as u8, n) };
        }
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $clr(d: *mut u8, n: usize) {
            unsafe { fill(d, 0, n) };
        }
    )*};
}

aeabi! {
    __aeabi_memcpy, __aeabi_memmove, __aeabi_memset, __aeabi_memclr;
    __aeabi_memcpy4, __aeabi_memmove4, __aeabi_memset4, __aeabi_memclr4;
    __aeabi_memcpy8, __aeabi_memmove8, __aeabi_memset8, __aeabi_memclr8;
}
