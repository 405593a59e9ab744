//! The six round-3 parameter sets (NTRU Prime round-3 spec, "List of parameter
//! sets", Streamlined NTRU Prime rows): p prime, q prime, weight w of short
//! polynomials. Every byte length follows from (p, q).

#[cfg(feature = "sntrup653")]
variant!(Sntrup653, sntrup653, p = 653, q = 4621, w = 288);
#[cfg(feature = "sntrup761")]
variant!(Sntrup761, sntrup761, p = 761, q = 4591, w = 286);
#[cfg(feature = "sntrup857")]
variant!(Sntrup857, sntrup857, p = 857, q = 5167, w = 322);
#[cfg(feature = "sntrup953")]
variant!(Sntrup953, sntrup953, p = 953, q = 6343, w = 396);
#[cfg(feature = "sntrup1013")]
variant!(Sntrup1013, sntrup1013, p = 1013, q = 7177, w = 448);
#[cfg(feature = "sntrup1277")]
variant!(Sntrup1277, sntrup1277, p = 1277, q = 7879, w = 492);
