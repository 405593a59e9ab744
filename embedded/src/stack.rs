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
    pub ticks: Option<u32>,
}

/// Runs `f(args)` and returns its result with its peak stack and ticks.
///
/// `f` is a function pointer hidden from the optimiser, called from a
/// trampoline that notes the stack pointer just before the call: the figure
/// is the stack below the operation's entry, as pqm4 measures a call of
/// `crypto_kem_keypair`. The result's storage (and any copy of it the
/// trampoline makes) is the caller's, not counted; neither are arguments.
#[inline(never)]
pub fn measure<A, R>(f: fn(A) -> R, args: A) -> (R, Usage) {
    let top = (sp() - GAP) & !3;
    let bottom = (floor() + 3) & !3;
    paint(bottom, top);
    let mut slot = core::mem::MaybeUninit::<R>::uninit();
    let mut entry = 0usize;
    crate::ticks::start();
    call(f, args, &mut slot, &mut entry);
    let ticks = crate::ticks::elapsed();
    // SAFETY: `call` initialised the slot.
    let r = unsafe { slot.assume_init() };
    let low = lowest_used(bottom, top);
    let stack = if low <= bottom {
        None
    } else {
        Some(entry.saturating_sub(low))
    };
    (r, Usage { stack, ticks })
}

#[inline(never)]
fn call<A, R>(f: fn(A) -> R, args: A, slot: &mut core::mem::MaybeUninit<R>, entry: &mut usize) {
    let f = core::hint::black_box(f);
    *entry = sp();
    slot.write(f(args));
}
