// Command ssh is the Go side of pqdr-ssh-kex's live interoperability test
// (crates/pqdr-ssh-kex/tests/ssh/go.rs): golang.org/x/crypto/ssh as a
// server or a client on 127.0.0.1, for one key exchange method, with
// chacha20-poly1305@openssh.com and an ssh-ed25519 host key. Each side
// prints the exchange hash H (x/crypto/ssh's session ID) so the test can
// compare it with pqdr's.
//
//	ssh server -kex NAME
//	    prints "listening ADDR" and "hostkey BASE64-BLOB", serves one
//	    connection (user authentication "none" accepted), prints
//	    "session HEX" from the auth callback, then "done" or "error MSG".
//	ssh client -kex NAME -addr ADDR -hostkey BASE64-BLOB
//	    connects, checks the host key, authenticates with "none", prints
//	    "hostkey verified", "session HEX", then "done" or "error MSG".
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/crypto/ssh"
)

const cipher = "chacha20-poly1305@openssh.com"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ssh server|client [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	kex := fs.String("kex", ssh.KeyExchangeMLKEM768X25519, "key exchange method")
	addr := fs.String("addr", "", "server address (client)")
	hostKey := fs.String("hostkey", "", "expected host key blob, base64 (client)")
	_ = fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "server":
		err = server(*kex)
	case "client":
		err = client(*kex, *addr, *hostKey)
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	fmt.Println("done")
}

func server(kex string) error {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return err
	}
	config := &ssh.ServerConfig{
		Config:       ssh.Config{KeyExchanges: []string{kex}, Ciphers: []string{cipher}},
		NoClientAuth: true,
		NoClientAuthCallback: func(c ssh.ConnMetadata) (*ssh.Permissions, error) {
			fmt.Printf("session %s\n", hex.EncodeToString(c.SessionID()))
			return nil, nil
		},
	}
	config.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Printf("listening %s\n", ln.Addr())
	fmt.Printf("hostkey %s\n", base64.StdEncoding.EncodeToString(signer.PublicKey().Marshal()))
	conn, err := ln.Accept()
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	sc, chans, reqs, err := ssh.NewServerConn(conn, config)
	if err != nil {
		return err
	}
	go ssh.DiscardRequests(reqs)
	go func() {
		for ch := range chans {
			_ = ch.Reject(ssh.Prohibited, "no channels")
		}
	}()
	_ = sc.Wait()
	return nil
}

func client(kex, addr, hostKey string) error {
	want, err := base64.StdEncoding.DecodeString(hostKey)
	if err != nil {
		return err
	}
	config := &ssh.ClientConfig{
		Config:            ssh.Config{KeyExchanges: []string{kex}, Ciphers: []string{cipher}},
		User:              "pqdr",
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519},
		// x/crypto/ssh calls this only after the host key signature over H
		// verified (handshake.go: verifyHostKeySignature, then the callback).
		HostKeyCallback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
			if !bytes.Equal(key.Marshal(), want) {
				return errors.New("host key differs from the expected one")
			}
			fmt.Println("hostkey verified")
			return nil
		},
		Timeout: 30 * time.Second,
	}
	conn, err := net.DialTimeout("tcp", addr, 30*time.Second)
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	c, chans, reqs, err := ssh.NewClientConn(conn, addr, config)
	if err != nil {
		return err
	}
	go ssh.DiscardRequests(reqs)
	go func() {
		for ch := range chans {
			_ = ch.Reject(ssh.Prohibited, "no channels")
		}
	}()
	fmt.Printf("session %s\n", hex.EncodeToString(c.SessionID()))
	return c.Close()
}
