//! Instruction counts from SysTick under `qemu-system-arm -icount shift=0`:
//! there the virtual clock advances 1 ns per executed instruction, and
//! SysTick, run from the 1 MHz reference clock (CLKSOURCE = 0), ticks once
//! per 1000 instructions; its 24 bits last 16.7 G instructions, so no
//! interrupt (which would disturb the stack figures) is needed. Without
//! `-icount` the figures follow the host's clock and mean nothing.
const SYST_CSR: *mut u32 = 0xE000_E010 as *mut u32;
const SYST_RVR: *mut u32 = 0xE000_E014 as *mut u32;
const SYST_CVR: *mut u32 = 0xE000_E018 as *mut u32;
const MAX: u32 = 0x00FF_FFFF;

/// Starts SysTick free-running from the reference clock, no interrupt.
pub fn init() {
    // SAFETY: the SysTick registers of the Cortex-M System Control Space.
    unsafe {
        SYST_CSR.write_volatile(0);
        SYST_RVR.write_volatile(MAX);
        SYST_CVR.write_volatile(0);
        SYST_CSR.write_volatile(1); // ENABLE, CLKSOURCE = reference, TICKINT = 0
    }
}

/// The down-counter's current value.
pub fn now() -> u32 {
    // SAFETY: as in `init`.
    unsafe { SYST_CVR.read_volatile() }
}

/// Ticks from `start` to `end` (the counter counts down and wraps at 2^24).
pub fn between(start: u32, end: u32) -> u32 {
    start.wrapping_sub(end) & MAX
}

/// A loop of exactly `2 * n` instructions (`subs`, `bne`), for calibration.
#[inline(never)]
pub fn spin(n: u32) {
    if n == 0 {
        return;
    }
    // SAFETY: arithmetic on a scratch register only.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs {0}, {0}, #1",
            "bne 2b",
            inout(reg) n => _,
            options(nomem, nostack)
        );
    }
}
