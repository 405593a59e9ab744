// Stand-in for core_simd's `vendor/arm.rs` (absent from the x86-64 rustdoc
// pages; see issue #20).  Upstream it only adds `From` conversions between
// `Simd` and the NEON / ARMv6 SIMD types; nothing here needs them.
