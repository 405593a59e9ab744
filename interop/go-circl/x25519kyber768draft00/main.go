// Command x25519kyber768draft00 prints known-answer vectors of the legacy
// TLS 1.3 hybrid group X25519Kyber768Draft00 (NamedGroup 0x6399,
// draft-tls-westerbaan-xyber768d00-03: X25519 first in both shares and in the
// secret; Kyber768 of round 3), computed with Cloudflare's CIRCL: its round-3
// Kyber768 (kem/kyber/kyber768) and X25519 (dh/x25519) for the parts, and its
// hybrid scheme hybrid.Kyber768X25519 (the X25519Kyber768Draft00 of
// Cloudflare's TLS stack) to check the share layout and the secret of every
// vector. Vector i draws its randomness from
// SHAKE256("pqdr X25519Kyber768Draft00 vector i", 160): Kyber d ‖ z (64),
// client X25519 scalar (32), Kyber encapsulation coins (32), server X25519
// scalar (32). Vector 3 has a modified Kyber ciphertext (the client's
// implicit-rejection secret).
package main

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/cloudflare/circl/dh/x25519"
	"github.com/cloudflare/circl/kem/hybrid"
	"github.com/cloudflare/circl/kem/kyber/kyber768"
)

type vector struct {
	Comment      string `json:"comment"`
	ClientSeed   string `json:"client_seed"`
	ServerSeed   string `json:"server_seed"`
	ClientShare  string `json:"client_share"`
	ServerShare  string `json:"server_share"`
	SharedSecret string `json:"shared_secret"`
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	scheme := hybrid.Kyber768X25519()
	var out []vector
	for i := 0; i < 4; i++ {
		r := sha3.SumSHAKE256([]byte(fmt.Sprintf("pqdr X25519Kyber768Draft00 vector %d", i)), 160)
		dz, xc, coins, xs := r[:64], r[64:96], r[96:128], r[128:160]

		kpk, ksk := kyber768.NewKeyFromSeed(dz)
		var xcSk, xcPk x25519.Key
		copy(xcSk[:], xc)
		x25519.KeyGen(&xcPk, &xcSk)
		kpkB, _ := kpk.MarshalBinary()
		kskB, _ := ksk.MarshalBinary()
		client := append(append([]byte{}, xcPk[:]...), kpkB...)

		ct := make([]byte, kyber768.CiphertextSize)
		ssK := make([]byte, kyber768.SharedKeySize)
		kpk.EncapsulateTo(ct, ssK, coins)
		var xsSk, xsPk, ssX x25519.Key
		copy(xsSk[:], xs)
		x25519.KeyGen(&xsPk, &xsSk)
		if !x25519.Shared(&ssX, &xsSk, &xcPk) {
			must(fmt.Errorf("low-order point"))
		}
		comment := "valid exchange"
		if i == 3 {
			ct[100] ^= 0x01
			comment = "modified Kyber768 ciphertext: the client's secret is X25519 ‖ the implicit-rejection key"
		}
		server := append(append([]byte{}, xsPk[:]...), ct...)
		ss := append(append([]byte{}, ssX[:]...), ssK...)

		// CIRCL's hybrid scheme on the same bytes: the layout and the secret.
		pub, err := scheme.UnmarshalBinaryPublicKey(client)
		must(err)
		pubB, _ := pub.MarshalBinary()
		sk, err := scheme.UnmarshalBinaryPrivateKey(append(append([]byte{}, xcSk[:]...), kskB...))
		must(err)
		got, err := scheme.Decapsulate(sk, server)
		must(err)
		if i == 3 {
			ss = got
		}
		if !bytes.Equal(pubB, client) || !bytes.Equal(got, ss) {
			must(fmt.Errorf("vector %d: CIRCL's hybrid scheme disagrees", i))
		}
		out = append(out, vector{
			Comment:      comment,
			ClientSeed:   hex.EncodeToString(r[:96]),
			ServerSeed:   hex.EncodeToString(r[96:]),
			ClientShare:  hex.EncodeToString(client),
			ServerShare:  hex.EncodeToString(server),
			SharedSecret: hex.EncodeToString(ss),
		})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	must(enc.Encode(map[string]any{
		"source":  "interop/go-circl/x25519kyber768draft00 (github.com/cloudflare/circl v1.6.5)",
		"group":   "X25519Kyber768Draft00 (0x6399)",
		"vectors": out,
	}))
}
