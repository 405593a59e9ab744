#![doc = "The PQDR post-quantum double ratchet: per-packet BLAKE3 key chain, ChaCha20-Poly1305, periodic ML-KEM ratchets, sans-IO over any byte transport"]
#![no_std]
