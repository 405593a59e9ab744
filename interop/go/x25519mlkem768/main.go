// Command x25519mlkem768 prints known-answer vectors for the TLS 1.3 hybrid
// group X25519MLKEM768 (0x11EC, draft-ietf-tls-ecdhe-mlkem), computed with
// Go's standard library only: crypto/mlkem (+ crypto/mlkem/mlkemtest for the
// derandomized encapsulation) and crypto/ecdh. The byte order is the one
// crypto/tls uses for this group (key_schedule.go): ML-KEM first in the
// client share (ek ‖ x25519), the server share (ct ‖ x25519) and the shared
// secret (ss_mlkem ‖ ss_x25519).
//
// Regenerate (from the repository root):
//
//	cd interop/go && go run ./x25519mlkem768 > ../../vectors/hybrid/x25519mlkem768-go.json
package main

import (
	"crypto/ecdh"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
)

type vector struct {
	Comment      string `json:"comment"`
	ClientSeed   string `json:"client_seed"`             // d ‖ z ‖ client X25519 scalar (96 bytes)
	ServerSeed   string `json:"server_seed"`             // m ‖ server X25519 scalar (64 bytes)
	ClientShare  string `json:"client_share"`            // what the server receives (1216 bytes)
	ServerShare  string `json:"server_share,omitempty"`  // what the client receives (1120 bytes)
	SharedSecret string `json:"shared_secret,omitempty"` // 64 bytes, the client's result
	ServerError  string `json:"server_error,omitempty"`  // the server must refuse the client share
	ClientError  string `json:"client_error,omitempty"`  // the client must refuse the server share
}

type file struct {
	Source  string   `json:"source"`
	Vectors []vector `json:"vectors"`
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// seeds returns the fixed client and server randomness of vector i:
// SHAKE256("pqdr X25519MLKEM768 vector " ‖ i), 96 + 64 bytes.
func seeds(i int) (client, server []byte) {
	out := sha3.SumSHAKE256([]byte(fmt.Sprintf("pqdr X25519MLKEM768 vector %d", i)), 160)
	return out[:96], out[96:]
}

func cat(a, b []byte) []byte { return append(append([]byte{}, a...), b...) }

type client struct {
	dk    *mlkem.DecapsulationKey768
	x     *ecdh.PrivateKey
	share []byte
}

func newClient(seed []byte) client {
	dk := must(mlkem.NewDecapsulationKey768(seed[:64]))
	x := must(ecdh.X25519().NewPrivateKey(seed[64:96]))
	return client{dk, x, cat(dk.EncapsulationKey().Bytes(), x.PublicKey().Bytes())}
}

// serve is the server's side on a received client share.
func serve(share, seed []byte) (serverShare, ss []byte, err error) {
	ek, err := mlkem.NewEncapsulationKey768(share[:mlkem.EncapsulationKeySize768])
	if err != nil {
		return nil, nil, fmt.Errorf("invalid-ek: %w", err)
	}
	peer := must(ecdh.X25519().NewPublicKey(share[mlkem.EncapsulationKeySize768:]))
	x := must(ecdh.X25519().NewPrivateKey(seed[32:64]))
	ssX, err := x.ECDH(peer)
	if err != nil {
		return nil, nil, fmt.Errorf("low-order: %w", err)
	}
	ssM, ct := must2(mlkemtest.Encapsulate768(ek, seed[:32]))
	return cat(ct, x.PublicKey().Bytes()), cat(ssM, ssX), nil
}

func must2(a, b []byte, err error) ([]byte, []byte) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// finish is the client's side on a received server share.
func (c client) finish(serverShare []byte) ([]byte, error) {
	ct := serverShare[:mlkem.CiphertextSize768]
	peer := must(ecdh.X25519().NewPublicKey(serverShare[mlkem.CiphertextSize768:]))
	ssX, err := c.x.ECDH(peer)
	if err != nil {
		return nil, fmt.Errorf("low-order: %w", err)
	}
	ssM := must(c.dk.Decapsulate(ct))
	return cat(ssM, ssX), nil
}

func h(b []byte) string { return hex.EncodeToString(b) }

func main() {
	var vs []vector
	// Valid exchanges; the client's result must equal the server's.
	for i := 0; i < 4; i++ {
		cs, ss := seeds(i)
		c := newClient(cs)
		srvShare, srvSecret, err := serve(c.share, ss)
		if err != nil {
			panic(err)
		}
		cliSecret := must(c.finish(srvShare))
		if hex.EncodeToString(cliSecret) != hex.EncodeToString(srvSecret) {
			panic("client and server disagree")
		}
		vs = append(vs, vector{Comment: fmt.Sprintf("valid exchange %d", i),
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share),
			ServerShare: h(srvShare), SharedSecret: h(cliSecret)})
	}

	// A server share whose ML-KEM ciphertext was modified: the client still
	// derives a secret (ML-KEM implicit rejection), which differs from the server's.
	{
		cs, ss := seeds(4)
		c := newClient(cs)
		srvShare, srvSecret, err := serve(c.share, ss)
		if err != nil {
			panic(err)
		}
		srvShare[100] ^= 0x01
		cliSecret := must(c.finish(srvShare))
		if hex.EncodeToString(cliSecret[:32]) == hex.EncodeToString(srvSecret[:32]) {
			panic("implicit rejection did not change the ML-KEM secret")
		}
		vs = append(vs, vector{Comment: "modified ML-KEM ciphertext: implicit rejection (client result only)",
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share),
			ServerShare: h(srvShare), SharedSecret: h(cliSecret)})
	}

	// A client share whose X25519 key has low order (u = 0 and u = 1): the
	// server must refuse it (all-zero X25519 secret, RFC 8446 §7.4.2).
	for j, u := range [][]byte{make([]byte, 32), append([]byte{1}, make([]byte, 31)...)} {
		cs, ss := seeds(5 + j)
		c := newClient(cs)
		share := cat(c.share[:mlkem.EncapsulationKeySize768], u)
		if _, _, err := serve(share, ss); err == nil {
			panic("low-order client share accepted")
		} else {
			vs = append(vs, vector{Comment: fmt.Sprintf("low-order client X25519 key (u = %d)", j),
				ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(share), ServerError: "low-order"})
		}
	}

	// A client share whose ML-KEM ek fails the FIPS 203 §7.2 modulus check
	// (first coefficient 4095): the server must refuse it.
	{
		cs, ss := seeds(7)
		c := newClient(cs)
		share := cat(c.share, nil)
		share[0] = 0xff
		share[1] |= 0x0f
		if _, _, err := serve(share, ss); err == nil {
			panic("invalid ek accepted")
		}
		vs = append(vs, vector{Comment: "ML-KEM ek fails the FIPS 203 7.2 modulus check",
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(share), ServerError: "invalid-ek"})
	}

	// A server share whose X25519 key has low order: the client must refuse it.
	{
		cs, ss := seeds(8)
		c := newClient(cs)
		srvShare, _, err := serve(c.share, ss)
		if err != nil {
			panic(err)
		}
		copy(srvShare[mlkem.CiphertextSize768:], make([]byte, 32))
		if _, err := c.finish(srvShare); err == nil {
			panic("low-order server share accepted")
		}
		vs = append(vs, vector{Comment: "low-order server X25519 key (u = 0)",
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share),
			ServerShare: h(srvShare), ClientError: "low-order"})
	}

	out := file{
		Source:  "interop/go/x25519mlkem768 (Go " + runtime.Version() + ", crypto/mlkem, crypto/mlkem/mlkemtest, crypto/ecdh)",
		Vectors: vs,
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
