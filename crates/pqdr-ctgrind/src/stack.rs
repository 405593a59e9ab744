//! Peak-stack measurement by painting (host tests and benchmarks only; Linux).
//!
//! Behind the non-default feature `stack-paint`, for test and benchmark
//! builds only: painting writes below the stack pointer, which no library
//! should ship. Enable the feature in `[dev-dependencies]`, never in a
//! crate's normal dependency on `pqdr-ctgrind`.
//!
//! [`peak`] fills up to `depth` bytes below the current stack frame with a
//! pattern, runs the closure, and returns how far below the measuring frame the
//! deepest overwritten byte lies. This counts bytes *written*; an array that is
//! reserved but never touched is not seen. The top 1 KiB below the frame is not
//! painted (the painting function's own frame lives there), so results under
//! 1 KiB read as 1 KiB.
//!
//! The painted range never leaves the calling thread's stack: `depth` is
//! clamped to the stack bounds the C library reports for the thread
//! (`pthread_getattr_np`, Linux only), less its guard area and a margin. A
//! caller-chosen `depth` larger than the thread's stack therefore paints less
//! (and can report at most the painted depth); it can no longer write into the
//! guard page or into a neighbouring mapping.

const PATTERN: u8 = 0xA5;
const SKIP: usize = 1024;
/// Left unpainted above the lowest address of the stack range, besides the
/// guard area (room for the signal frames the kernel may push there).
const MARGIN: usize = 64 * 1024;
/// Also left unpainted on the process's main thread: its range is computed
/// from the stack rlimit and `/proc/self/maps`, and the kernel keeps a gap
/// (`stack_guard_gap`, 256 pages by default) between a growing main stack
/// and the mapping below it.
const MAIN_THREAD_GAP: usize = 1 << 20;

/// The lowest address `peak` may write on the calling thread, or `None` when
/// the stack bounds cannot be read.
#[cfg(target_os = "linux")]
fn lowest_paintable() -> Option<usize> {
    let mut attr = core::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
    // SAFETY: `pthread_getattr_np` initializes `attr` for the calling thread
    // (`pthread_self()` is always valid) and returns 0 on success; only then
    // is `attr` read, and it is destroyed exactly once below.
    if unsafe { libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) } != 0 {
        return None;
    }
    let mut addr = core::ptr::null_mut::<libc::c_void>();
    let mut size = 0usize;
    let mut guard = 0usize;
    // SAFETY: `attr` was initialized by the successful call above; the out
    // pointers are valid locals.
    let ok = unsafe {
        libc::pthread_attr_getstack(attr.as_ptr(), &raw mut addr, &raw mut size) == 0
            && libc::pthread_attr_getguardsize(attr.as_ptr(), &raw mut guard) == 0
    };
    // SAFETY: `attr` is initialized and not used after this call.
    unsafe { libc::pthread_attr_destroy(attr.as_mut_ptr()) };
    if !ok || addr.is_null() || size == 0 {
        return None;
    }
    // SAFETY: plain system calls without arguments that cannot fail.
    let main = unsafe { libc::syscall(libc::SYS_gettid) == libc::c_long::from(libc::getpid()) };
    // glibc may report the guard area inside the range or below it
    // (pthread_attr_getguardsize(3), BUGS): assume inside, the smaller range.
    let low = (addr as usize)
        .checked_add(guard)?
        .checked_add(MARGIN)?
        .checked_add(if main { MAIN_THREAD_GAP } else { 0 })?;
    Some(low)
}

#[cfg(not(target_os = "linux"))]
fn lowest_paintable() -> Option<usize> {
    None
}

/// `depth` clamped so that `[base - depth, base)` lies at or above `low`.
fn clamp(base: usize, depth: usize, low: usize) -> usize {
    depth.min(base.saturating_sub(low))
}

extern crate std;

std::thread_local! {
    /// The lowest paintable address of this thread's stack, as `paint` read
    /// it (0: not read yet). `lowest_touched` takes it from here: reading the
    /// bounds again there would itself use stack (glibc parses
    /// `/proc/self/maps` for the main thread) inside the measured range.
    static LOW: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// `depth` clamped to the calling thread's stack below `base` (at least
/// `SKIP`, which paints nothing), with the stack bounds read from the OS
/// (`fresh`) or as `paint` last read them on this thread.
///
/// Both `paint` and `lowest_touched` call this, so that `peak` keeps no value
/// of its own across the closure: its frame, from which every figure is
/// measured, is the same as before the clamping.
///
/// # Panics
/// If the stack bounds cannot be read (see [`peak`]).
fn clamped(base: usize, depth: usize, fresh: bool) -> usize {
    let mut low = LOW.with(core::cell::Cell::get);
    if fresh || low == 0 {
        let Some(l) = lowest_paintable() else {
            panic!("pqdr_ctgrind::stack::peak: the thread's stack bounds are unknown");
        };
        LOW.with(|c| c.set(l));
        low = l;
    }
    clamp(base, depth, low).max(SKIP)
}

#[inline(never)]
fn paint(base: usize, depth: usize) {
    let depth = clamped(base, depth, true);
    let mut a = base - depth;
    while a < base - SKIP {
        // SAFETY: `clamped` keeps [base - depth, base - SKIP) inside this
        // thread's stack range, above its guard area and a margin, and below
        // the live frames (`base` is the address of a local of `peak`; the
        // SKIP bytes below it hold the frames of `paint` and
        // `lowest_touched`). Nothing else reads that memory while we write it.
        unsafe { core::ptr::write_volatile(a as *mut u8, PATTERN) };
        a += 1;
    }
}

#[inline(never)]
fn lowest_touched(base: usize, depth: usize) -> usize {
    let depth = clamped(base, depth, false);
    let mut a = base - depth;
    while a < base - SKIP {
        // SAFETY: the same region `paint` wrote (the same clamping), inside
        // this thread's stack; reading it as bytes is valid (every byte is
        // initialized: painted, or written since by the closure's frames).
        let v = unsafe { core::ptr::read_volatile(a as *const u8) };
        if v != PATTERN {
            return a;
        }
        a += 1;
    }
    base - SKIP
}

/// Runs `f` and returns its peak stack use in bytes (see the module docs).
///
/// `depth` is how far below the measuring frame to paint; it is clamped to
/// the calling thread's stack (less its guard area and a margin), so a
/// result equal to the clamped depth means "at least that much". Run it on
/// a thread with a stack comfortably larger than `depth` (e.g.
/// `std::thread::Builder::new().stack_size(depth + (1 << 20))`) so that no
/// clamping happens.
///
/// # Panics
/// If the calling thread's stack bounds cannot be read (targets other than
/// Linux, or `pthread_getattr_np` failing): nothing is painted then.
#[inline(never)]
pub fn peak<F: FnOnce()>(depth: usize, f: F) -> usize {
    let marker = 0u8;
    let base = core::hint::black_box(core::ptr::from_ref(&marker) as usize);
    paint(base, depth);
    f();
    base - lowest_touched(base, depth)
}
