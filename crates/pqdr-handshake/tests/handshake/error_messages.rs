//! Every error's message is a sentence saying what was wrong (issue #37
//! item 9), and a length error names both sizes.
#![allow(missing_docs, clippy::unwrap_used, reason = "test code")]

use pqdr_handshake::Error;

const ALL: [Error; 28] = [
    Error::BufferTooSmall,
    Error::Length {
        expected: 2388,
        actual: 2387,
    },
    Error::MessageType,
    Error::Version,
    Error::UnknownSuite,
    Error::SuiteNotAccepted,
    Error::NonZeroPadding,
    Error::Mac1,
    Error::RateLimited,
    Error::UnknownIndex,
    Error::UnknownPeer,
    Error::Decrypt,
    Error::InvalidEncapsulationKey,
    Error::LowOrderPoint,
    Error::Signature,
    Error::StaleTimestamp,
    Error::Flood,
    Error::BiscuitInvalid,
    Error::BiscuitReplay,
    Error::Duplicate,
    Error::WrongState,
    Error::Timeout,
    Error::RotationOverdue,
    Error::Config,
    Error::FragmentHeader,
    Error::FragmentMac,
    Error::FragmentMismatch,
    Error::FragmentDuplicate,
];

#[test]
fn every_message_is_a_sentence() {
    for e in ALL {
        let (msg, name) = (e.to_string(), format!("{e:?}"));
        // Not the variant name (the old `Display` was `Debug`).
        assert!(!msg.contains(name.split(' ').next().unwrap()), "{msg}");
        assert!(
            msg.starts_with("the ")
                || msg.starts_with("an ")
                || msg.starts_with("a ")
                || msg.starts_with("this "),
            "{msg}"
        );
        assert!(msg.split(' ').count() >= 5, "{msg}");
        assert!(!msg.ends_with('.'), "no trailing period (std style): {msg}");
    }
}

#[test]
fn length_error_names_both_sizes() {
    let msg = ALL[1].to_string();
    assert!(
        msg.contains("2387 bytes") && msg.contains("expected 2388"),
        "{msg}"
    );
}

/// A message too short to fragment reports the minimum and what arrived.
#[test]
fn short_fragment_input_reports_sizes() {
    use pqdr_handshake::frag::{FragKeys, fragment};
    let keys = FragKeys::for_responder(&[7; 32]);
    let e = fragment(&[1u8; 5], &keys).err().unwrap();
    assert_eq!(
        e,
        Error::Length {
            expected: 8,
            actual: 5
        }
    );
    assert!(e.to_string().contains("5 bytes, expected 8"), "{e}");
}
