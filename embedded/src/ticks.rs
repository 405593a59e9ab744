//! Instruction counts from SysTick under `qemu-system-arm -icount shift=0`:
//! there the virtual clock advances 1 ns per executed instruction, and
//! SysTick, run from the 1 MHz reference clock (CLKSOURCE = 0), ticks once
//! per 1000 instructions. Its 24 bits last 16.7 G instructions; a longer
//! operation is detected by COUNTFLAG (no interrupt, which would disturb the
//! stack figures) and reported as `None`. Without `-icount` the figures
//! follow the host's clock and mean nothing.
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

/// Restarts the count: the counter is cleared (it reloads 2^24 - 1 at the
/// next tick) and COUNTFLAG is cleared by reading the control register.
pub fn start() {
    // SAFETY: as in `init`.
    unsafe {
        SYST_CVR.write_volatile(0);
        SYST_CSR.read_volatile();
    }
}

/// Ticks since `start`, or `None` if the counter went through zero again
/// (2^24 ticks or more).
pub fn elapsed() -> Option<u32> {
    // SAFETY: as in `init`.
    let (cvr, csr) = unsafe { (SYST_CVR.read_volatile(), SYST_CSR.read_volatile()) };
    if csr & (1 << 16) != 0 {
        None
    } else if cvr == 0 {
        Some(0)
    } else {
        Some(MAX - cvr + 1)
    }
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
