#![doc = "Streamlined NTRU Prime (round 3): sntrup653 to sntrup1277, pure Rust, no_std, constant time"]
#![no_std]
