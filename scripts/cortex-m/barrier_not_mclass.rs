// Stand-in for stdarch's `arm_shared/barrier/not_mclass.rs` (absent from the
// x86-64 rustdoc pages; see issue #20): the A/R-profile access types.

/// Full system is the required shareability domain, writes are the required
/// access type
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct ST;
dmb_dsb!(ST);

/// Inner Shareable is the required shareability domain, reads and writes are
/// the required access types
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct ISH;
dmb_dsb!(ISH);

/// Inner Shareable is the required shareability domain, writes are the required
/// access type
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct ISHST;
dmb_dsb!(ISHST);

/// Non-shareable is the required shareability domain, reads and writes are the
/// required access types
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct NSH;
dmb_dsb!(NSH);

/// Non-shareable is the required shareability domain, writes are the required
/// access type
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct NSHST;
dmb_dsb!(NSHST);

/// Outer Shareable is the required shareability domain, reads and writes are
/// the required access types
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct OSH;
dmb_dsb!(OSH);

/// Outer Shareable is the required shareability domain, writes are the required
/// access type
#[unstable(feature = "stdarch_arm_barrier", issue = "117219")]
pub struct OSHST;
dmb_dsb!(OSHST);
