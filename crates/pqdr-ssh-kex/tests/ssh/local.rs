//! Our client against our server on loopback, every method name.

use std::net::{TcpListener, TcpStream};

use pqdr_ssh_kex::Kex;
use pqdr_ssh_kex::hostkey::HostKey;

use crate::conn::{Conn, rng};

#[test]
fn every_method_client_to_server() {
    for kex in Kex::ALL {
        let host = HostKey::generate(&mut rng());
        let blob = host.public_blob();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (s, _) = listener.accept().unwrap();
            Conn::server(s, &[kex], &host).unwrap()
        });
        let client = Conn::client(TcpStream::connect(addr).unwrap(), &Kex::ALL, true).unwrap();
        let server = server.join().unwrap();
        assert_eq!(client.kex, kex);
        assert!(client.strict && server.strict);
        assert_eq!(client.outcome.exchange_hash, server.outcome.exchange_hash);
        assert_eq!(
            client.outcome.exchange_hash.as_bytes().len(),
            kex.hash_len()
        );
        assert_eq!(client.outcome.host_key[..], blob[blob.len() - 32..]);
        assert!(client.auth_success);
        assert_eq!(server.service, b"ssh-userauth");
    }
}
