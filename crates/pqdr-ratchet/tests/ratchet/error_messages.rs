//! Every error's message is a sentence saying what was wrong (issue #37
//! item 9), and a buffer error names both sizes.
#![allow(missing_docs, clippy::unwrap_used, reason = "test code")]

use pqdr_ratchet::Error;

const ALL: [Error; 19] = [
    Error::BufferTooSmall {
        needed: 1234,
        got: 56,
    },
    Error::Malformed,
    Error::KemMismatch,
    Error::Unauthentic,
    Error::Replay,
    Error::TooOld,
    Error::TooFarAhead,
    Error::UnknownEpoch,
    Error::RekeyOverdue,
    Error::EpochExhausted,
    Error::ReservationExhausted,
    Error::ExportRequired,
    Error::UnknownGeneration,
    Error::ReserveTooLarge,
    Error::WrongSession,
    Error::StaleGeneration,
    Error::StateVersion,
    Error::StateCorrupt,
    Error::Closed,
];

#[test]
fn every_message_is_a_sentence() {
    for e in ALL {
        let (msg, name) = (e.to_string(), format!("{e:?}"));
        // Not the variant name (the old `Display` was `Debug`).
        assert!(!msg.contains(name.split(' ').next().unwrap()), "{msg}");
        assert!(msg.starts_with("the "), "{msg}");
        assert!(msg.split(' ').count() >= 5, "{msg}");
        assert!(!msg.ends_with('.'), "no trailing period (std style): {msg}");
    }
}

#[test]
fn buffer_error_names_both_sizes() {
    let msg = ALL[0].to_string();
    assert!(msg.contains("1234") && msg.contains("56"), "{msg}");
    assert!(msg.contains("output buffer"), "{msg}");
}
