// Stand-in for stdarch's `arm_shared/barrier/common.rs` (absent from the
// x86-64 rustdoc pages; see issue #20): the access type every ARM profile has.

/// Full system is the required shareability domain, reads and writes are the
/// required access types
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct SY;

dmb_dsb!(SY);

#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
impl super::super::sealed::Isb for SY {
    #[inline(always)]
    unsafe fn __isb(&self) {
        super::isb(super::arg::SY)
    }
}
