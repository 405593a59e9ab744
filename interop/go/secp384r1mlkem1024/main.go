// Command secp384r1mlkem1024 prints known-answer vectors for the TLS 1.3
// hybrid group SecP384r1MLKEM1024 (0x11ED, draft-ietf-tls-ecdhe-mlkem),
// computed with Go's standard library only: crypto/mlkem (+
// crypto/mlkem/mlkemtest for the derandomized encapsulation), crypto/ecdh
// (P384) and math/big. The byte order is the one crypto/tls uses for this
// group (key_schedule.go, hybridKeyExchange): ECDH first in the client share
// (P-384 point ‖ ek), the server share (P-384 point ‖ ct) and the shared
// secret (x-coordinate ‖ ss_mlkem).
//
// The P-384 private scalars come from 56 bytes c by FIPS 186-5 A.2.1,
// d = (c mod (n − 1)) + 1, computed here with math/big and handed to
// crypto/ecdh's NewPrivateKey.
//
// Regenerate (from the repository root):
//
//	cd interop/go && go run ./secp384r1mlkem1024 > ../../vectors/hybrid/secp384r1mlkem1024-go.json
package main

import (
	"crypto/ecdh"
	"crypto/elliptic"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"runtime"
)

const (
	pointSize  = 97
	seedSize   = 56 // FIPS 186-5 A.2.1: len(n) + 64 bits
	clientSize = 64 + seedSize
	serverSize = 32 + seedSize
)

type vector struct {
	Comment      string `json:"comment"`
	ClientSeed   string `json:"client_seed"`             // d ‖ z ‖ c (120 bytes)
	ServerSeed   string `json:"server_seed"`             // m ‖ c (88 bytes)
	ClientShare  string `json:"client_share"`            // what the server receives (1665 bytes, unless a length test)
	ServerShare  string `json:"server_share,omitempty"`  // what the client receives (1665 bytes, unless a length test)
	SharedSecret string `json:"shared_secret,omitempty"` // 80 bytes, the client's result
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
// SHAKE256("pqdr SecP384r1MLKEM1024 vector " ‖ i), 120 + 88 bytes.
func seeds(i int) (client, server []byte) {
	out := sha3.SumSHAKE256([]byte(fmt.Sprintf("pqdr SecP384r1MLKEM1024 vector %d", i)), clientSize+serverSize)
	return out[:clientSize], out[clientSize:]
}

func cat(a, b []byte) []byte { return append(append([]byte{}, a...), b...) }

// scalar is FIPS 186-5 A.2.1: d = (c mod (n − 1)) + 1, as 48 big-endian bytes.
func scalar(c []byte) *ecdh.PrivateKey {
	nMinus1 := new(big.Int).Sub(elliptic.P384().Params().N, big.NewInt(1))
	d := new(big.Int).Mod(new(big.Int).SetBytes(c), nMinus1)
	d.Add(d, big.NewInt(1))
	return must(ecdh.P384().NewPrivateKey(d.FillBytes(make([]byte, 48))))
}

type client struct {
	dk    *mlkem.DecapsulationKey1024
	e     *ecdh.PrivateKey
	share []byte
}

func newClient(seed []byte) client {
	dk := must(mlkem.NewDecapsulationKey1024(seed[:64]))
	e := scalar(seed[64:clientSize])
	return client{dk, e, cat(e.PublicKey().Bytes(), dk.EncapsulationKey().Bytes())}
}

// serve is the server's side on a received client share.
func serve(share, seed []byte) (serverShare, ss []byte, err error) {
	if len(share) != pointSize+mlkem.EncapsulationKeySize1024 {
		return nil, nil, fmt.Errorf("length")
	}
	peer, err := ecdh.P384().NewPublicKey(share[:pointSize])
	if err != nil {
		return nil, nil, fmt.Errorf("invalid-point: %w", err)
	}
	ek, err := mlkem.NewEncapsulationKey1024(share[pointSize:])
	if err != nil {
		return nil, nil, fmt.Errorf("invalid-ek: %w", err)
	}
	e := scalar(seed[32:serverSize])
	ssE := must(e.ECDH(peer))
	ssM, ct := must2(mlkemtest.Encapsulate1024(ek, seed[:32]))
	return cat(e.PublicKey().Bytes(), ct), cat(ssE, ssM), nil
}

func must2(a, b []byte, err error) ([]byte, []byte) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// finish is the client's side on a received server share.
func (c client) finish(serverShare []byte) ([]byte, error) {
	if len(serverShare) != pointSize+mlkem.CiphertextSize1024 {
		return nil, fmt.Errorf("length")
	}
	peer, err := ecdh.P384().NewPublicKey(serverShare[:pointSize])
	if err != nil {
		return nil, fmt.Errorf("invalid-point: %w", err)
	}
	ssE := must(c.e.ECDH(peer))
	ssM := must(c.dk.Decapsulate(serverShare[pointSize:]))
	return cat(ssE, ssM), nil
}

func h(b []byte) string { return hex.EncodeToString(b) }

// exchange runs a whole exchange and records it.
func exchange(comment string, cs, ss []byte) vector {
	c := newClient(cs)
	srvShare, srvSecret := must2(serve(c.share, ss))
	cliSecret := must(c.finish(srvShare))
	if h(cliSecret) != h(srvSecret) {
		panic("client and server disagree")
	}
	return vector{Comment: comment, ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share),
		ServerShare: h(srvShare), SharedSecret: h(cliSecret)}
}

// badPoints are uncompressed-length P-384 keys crypto/ecdh must refuse.
func badPoints(valid []byte) map[string][]byte {
	p := elliptic.P384().Params().P.FillBytes(make([]byte, 48))
	offCurve := cat(valid, nil)
	offCurve[96] ^= 0x01
	compressedTag := cat(valid, nil)
	compressedTag[0] = 0x02 | (valid[96] & 1)
	xIsP := cat(valid, nil)
	copy(xIsP[1:49], p)
	return map[string][]byte{
		"point off the curve (last bit of y flipped)": offCurve,
		"point with x = p (coordinate out of range)":  xIsP,
		"tag 0x02/0x03 (compressed) on 97 bytes":      compressedTag,
		"identity: 0x00 followed by 96 zero bytes":    make([]byte, pointSize),
		"(0, 0) with the uncompressed tag 0x04":       cat([]byte{4}, make([]byte, 96)),
	}
}

func main() {
	var vs []vector
	// Valid exchanges; the client's result must equal the server's.
	for i := 0; i < 4; i++ {
		cs, ss := seeds(i)
		vs = append(vs, exchange(fmt.Sprintf("valid exchange %d", i), cs, ss))
	}
	// Edge scalars of FIPS 186-5 A.2.1: c = 0 (d = 1) for the client,
	// c = n − 2 (d = n − 1) for the server; then c = 2^448 − 1 and c = n − 1 (d = 1).
	{
		n := elliptic.P384().Params().N
		cs, ss := seeds(4)
		cs = cat(cs[:64], make([]byte, seedSize))
		ss = cat(ss[:32], new(big.Int).Sub(n, big.NewInt(2)).FillBytes(make([]byte, seedSize)))
		vs = append(vs, exchange("edge scalars: client c = 0 (d = 1), server c = n - 2 (d = n - 1)", cs, ss))
		cs, ss = seeds(5)
		ones := make([]byte, seedSize)
		for i := range ones {
			ones[i] = 0xff
		}
		cs = cat(cs[:64], ones)
		ss = cat(ss[:32], new(big.Int).Sub(n, big.NewInt(1)).FillBytes(make([]byte, seedSize)))
		vs = append(vs, exchange("edge scalars: client c = 2^448 - 1, server c = n - 1 (d = 1)", cs, ss))
	}

	// A server share whose ML-KEM ciphertext was modified: the client still
	// derives a secret (ML-KEM implicit rejection), which differs from the server's.
	{
		cs, ss := seeds(6)
		c := newClient(cs)
		srvShare, srvSecret := must2(serve(c.share, ss))
		srvShare[pointSize+100] ^= 0x01
		cliSecret := must(c.finish(srvShare))
		if h(cliSecret[48:]) == h(srvSecret[48:]) || h(cliSecret[:48]) != h(srvSecret[:48]) {
			panic("implicit rejection did not change only the ML-KEM secret")
		}
		vs = append(vs, vector{Comment: "modified ML-KEM ciphertext: implicit rejection (client result only)",
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share),
			ServerShare: h(srvShare), SharedSecret: h(cliSecret)})
	}

	// Client shares the server must refuse: invalid P-384 keys (in a fixed order).
	names := []string{
		"point off the curve (last bit of y flipped)",
		"point with x = p (coordinate out of range)",
		"tag 0x02/0x03 (compressed) on 97 bytes",
		"identity: 0x00 followed by 96 zero bytes",
		"(0, 0) with the uncompressed tag 0x04",
	}
	for j, name := range names {
		cs, ss := seeds(7 + j)
		c := newClient(cs)
		share := cat(badPoints(c.share[:pointSize])[name], c.share[pointSize:])
		if _, _, err := serve(share, ss); err == nil {
			panic("invalid client point accepted: " + name)
		}
		vs = append(vs, vector{Comment: "client " + name, ClientSeed: h(cs), ServerSeed: h(ss),
			ClientShare: h(share), ServerError: "invalid-point"})
	}

	// A client share whose ML-KEM ek fails the FIPS 203 §7.2 modulus check
	// (first coefficient 4095): the server must refuse it.
	{
		cs, ss := seeds(12)
		c := newClient(cs)
		share := cat(c.share, nil)
		share[pointSize] = 0xff
		share[pointSize+1] |= 0x0f
		if _, _, err := serve(share, ss); err == nil {
			panic("invalid ek accepted")
		}
		vs = append(vs, vector{Comment: "ML-KEM ek fails the FIPS 203 7.2 modulus check",
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(share), ServerError: "invalid-ek"})
	}

	// Client shares of the wrong length (one byte short, one byte long).
	for j, delta := range []int{-1, 1} {
		cs, ss := seeds(13 + j)
		c := newClient(cs)
		share := cat(c.share, nil)
		if delta < 0 {
			share = share[:len(share)-1]
		} else {
			share = append(share, 0)
		}
		if _, _, err := serve(share, ss); err == nil {
			panic("wrong-length client share accepted")
		}
		vs = append(vs, vector{Comment: fmt.Sprintf("client share of %d bytes", len(share)),
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(share), ServerError: "length"})
	}

	// Server shares the client must refuse: an invalid P-384 key, a wrong length.
	{
		cs, ss := seeds(15)
		c := newClient(cs)
		srvShare, _ := must2(serve(c.share, ss))
		bad := cat(badPoints(srvShare[:pointSize])[names[0]], srvShare[pointSize:])
		if _, err := c.finish(bad); err == nil {
			panic("invalid server point accepted")
		}
		vs = append(vs, vector{Comment: "server " + names[0], ClientSeed: h(cs), ServerSeed: h(ss),
			ClientShare: h(c.share), ServerShare: h(bad), ClientError: "invalid-point"})
		short := srvShare[:len(srvShare)-1]
		if _, err := c.finish(short); err == nil {
			panic("short server share accepted")
		}
		vs = append(vs, vector{Comment: fmt.Sprintf("server share of %d bytes", len(short)),
			ClientSeed: h(cs), ServerSeed: h(ss), ClientShare: h(c.share), ServerShare: h(short),
			ClientError: "length"})
	}

	out := file{
		Source:  "interop/go/secp384r1mlkem1024 (Go " + runtime.Version() + ", crypto/mlkem, crypto/mlkem/mlkemtest, crypto/ecdh, math/big)",
		Vectors: vs,
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
