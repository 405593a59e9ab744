#![doc = "Classic McEliece (round 4 and ISO pc sets), every parameter set in one build, pure Rust, no_std, constant time"]
#![no_std]
