//! Peak stack by painting: every word between the end of the static data and a
//! little below the current stack pointer is set to a pattern, the operation
//! runs, and the lowest word no longer holding the pattern marks its deepest
//! point. The figure counts from the measuring frame's stack pointer, so it
//! includes the operation's own frames and the call into it.
use core::arch::asm;

const PATTERN: u32 = 0xA5C3_5A3C;
/// Unpainted gap below the measuring frame (covers `paint`'s own frame).
const GAP: usize = 64;

unsafe extern "C" {
    /// End of .bss/.uninit (cortex-m-rt's link.x): the stack may grow to here.
    static mut __sheap: u32;
}

fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register only.
    unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

fn floor() -> usize {
    // Keep 1 KiB above the static data untouched.
    (&raw const __sheap) as usize + 1024
}

#[inline(never)]
fn paint(bottom: usize, top: usize) {
    let mut p = bottom;
    while p < top {
        // SAFETY: [bottom, top) lies between the static data and this frame.
        unsafe { (p as *mut u32).write_volatile(PATTERN) };
        p += 4;
    }
}

#[inline(never)]
fn lowest_used(bottom: usize, top: usize) -> usize {
    let mut p = bottom;
    // SAFETY: as in `paint`.
    while p < top && unsafe { (p as *const u32).read_volatile() } == PATTERN {
        p += 4;
    }
    p
}

/// Peak stack in bytes (`None` if the painted region was exhausted) and
/// SysTick ticks (see `ticks`) of one operation.
#[derive(Clone, Copy)]
pub struct Usage {
    pub stack: Option<usize>,
    pub ticks: u32,
}

/// Runs `f` and returns its result with its peak stack and ticks.
#[inline(never)]
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Usage) {
    let top = (sp() - GAP) & !3;
    let bottom = (floor() + 3) & !3;
    paint(bottom, top);
    let t0 = crate::ticks::now();
    let r = core::hint::black_box(call(f));
    let t1 = crate::ticks::now();
    let low = lowest_used(bottom, top);
    let used = top + GAP - low;
    let stack = if low <= bottom { None } else { Some(used) };
    (
        r,
        Usage {
            stack,
            ticks: crate::ticks::between(t0, t1),
        },
    )
}

#[inline(never)]
fn call<R>(f: impl FnOnce() -> R) -> R {
    f()
}
