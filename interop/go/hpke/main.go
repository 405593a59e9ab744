// Command hpke is the Go side of pqdr-hpke's live interoperability test
// (crates/pqdr-hpke/tests/go_interop.rs), on Go's crypto/hpke (standard
// library only). One binary, two batch modes driven by stdin:
//
//	hpke seal   reads "pk <kem> <pkR>" lines (public keys made by pqdr),
//	            and for every KDF x AEAD Go supports seals the fixed
//	            messages to each key, printing
//	            "sealed <kem> <kdf> <aead> <enc> <ct0> <ct1> <exp0> <exp1>";
//	            it also prints "key <kem> <skR> <pkR>" for a key pair of its
//	            own per KEM, for the other direction.
//	hpke open   reads "open <kem> <kdf> <aead> <skR> <enc> <ct0> <ct1> <exp0> <exp1>"
//	            lines (sealed by pqdr to Go's keys), opens them, checks the
//	            plaintexts and the exported secrets, checks that a modified
//	            ciphertext is refused, and prints "ok <kem> <kdf> <aead>" or
//	            "fail <kem> <kdf> <aead> <reason>".
//
// Identifiers are 4-digit hex, byte strings hex ("-" for none: the
// export-only AEAD has no ciphertexts). The messages and exporter contexts
// are fixed here and in the Rust test.
package main

import (
	"bufio"
	"bytes"
	"crypto/hpke"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

var (
	info = []byte("pqdr-hpke interop info")
	aads = [][]byte{[]byte("aad 0"), nil}
	pts  = [][]byte{[]byte("message 0 from the sender"), bytes.Repeat([]byte{0xA5}, 1000)}
	// Exporter contexts and lengths.
	expCtx = []string{"pqdr exporter 0", ""}
	expLen = []int{32, 100}
)

var kdfs = []uint16{0x0001, 0x0002, 0x0003, 0x0010, 0x0011}
var aeadIDs = []uint16{0x0001, 0x0002, 0x0003, 0xFFFF}

func hx(b []byte) string {
	if b == nil {
		return "-"
	}
	return hex.EncodeToString(b)
}

func unhex(s string) []byte {
	if s == "-" {
		return nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		fatal("bad hex: %v", err)
	}
	return b
}

func id(s string) uint16 {
	v, err := strconv.ParseUint(s, 16, 16)
	if err != nil {
		fatal("bad identifier %q", s)
	}
	return uint16(v)
}

func fatal(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "hpke interop: "+format+"\n", a...)
	os.Exit(1)
}

func suite(kemID, kdfID, aeadID uint16) (hpke.KEM, hpke.KDF, hpke.AEAD) {
	kem, err := hpke.NewKEM(kemID)
	if err != nil {
		fatal("KEM %04x: %v", kemID, err)
	}
	kdf, err := hpke.NewKDF(kdfID)
	if err != nil {
		fatal("KDF %04x: %v", kdfID, err)
	}
	aead, err := hpke.NewAEAD(aeadID)
	if err != nil {
		fatal("AEAD %04x: %v", aeadID, err)
	}
	return kem, kdf, aead
}

func seal(out *bufio.Writer, kemID uint16, pkBytes []byte) {
	for _, kdfID := range kdfs {
		for _, aeadID := range aeadIDs {
			kem, kdf, aead := suite(kemID, kdfID, aeadID)
			pk, err := kem.NewPublicKey(pkBytes)
			if err != nil {
				fatal("KEM %04x public key: %v", kemID, err)
			}
			enc, s, err := hpke.NewSender(pk, kdf, aead, info)
			if err != nil {
				fatal("NewSender: %v", err)
			}
			fields := []string{"sealed", fmt.Sprintf("%04x %04x %04x", kemID, kdfID, aeadID), hx(enc)}
			for i := range pts {
				if aeadID == 0xFFFF {
					if _, err := s.Seal(aads[i], pts[i]); err == nil {
						fatal("export-only Seal succeeded")
					}
					fields = append(fields, "-")
					continue
				}
				ct, err := s.Seal(aads[i], pts[i])
				if err != nil {
					fatal("Seal: %v", err)
				}
				fields = append(fields, hx(ct))
			}
			for i := range expCtx {
				e, err := s.Export(expCtx[i], expLen[i])
				if err != nil {
					fatal("Export: %v", err)
				}
				fields = append(fields, hx(e))
			}
			fmt.Fprintln(out, strings.Join(fields, " "))
		}
	}
	kem, _, _ := suite(kemID, 0x0001, 0x0001)
	k, err := kem.GenerateKey()
	if err != nil {
		fatal("GenerateKey: %v", err)
	}
	sk, err := k.Bytes()
	if err != nil {
		fatal("private key bytes: %v", err)
	}
	fmt.Fprintf(out, "key %04x %s %s\n", kemID, hx(sk), hx(k.PublicKey().Bytes()))
}

func open(f []string) string {
	if len(f) != 10 {
		fatal("open line has %d fields", len(f))
	}
	kem, kdf, aead := suite(id(f[1]), id(f[2]), id(f[3]))
	k, err := kem.NewPrivateKey(unhex(f[4]))
	if err != nil {
		return "private key: " + err.Error()
	}
	r, err := hpke.NewRecipient(unhex(f[5]), k, kdf, aead, info)
	if err != nil {
		return "NewRecipient: " + err.Error()
	}
	for i := range pts {
		ct := unhex(f[6+i])
		if aead.ID() == 0xFFFF {
			if ct != nil {
				return "ciphertext for export-only"
			}
			continue
		}
		if i == 0 {
			// A modified ciphertext must be refused (and not advance the sequence number).
			bad := bytes.Clone(ct)
			bad[len(bad)-1] ^= 1
			if _, err := r.Open(aads[i], bad); err == nil {
				return "modified ciphertext opened"
			}
		}
		pt, err := r.Open(aads[i], ct)
		if err != nil {
			return fmt.Sprintf("Open %d: %v", i, err)
		}
		if !bytes.Equal(pt, pts[i]) {
			return fmt.Sprintf("plaintext %d differs", i)
		}
	}
	for i := range expCtx {
		e, err := r.Export(expCtx[i], expLen[i])
		if err != nil {
			return "Export: " + err.Error()
		}
		if !bytes.Equal(e, unhex(f[8+i])) {
			return fmt.Sprintf("exported secret %d differs", i)
		}
	}
	return ""
}

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "seal" && os.Args[1] != "open") {
		fatal("usage: hpke seal|open < lines")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch {
		case os.Args[1] == "seal" && f[0] == "pk" && len(f) == 3:
			seal(out, id(f[1]), unhex(f[2]))
		case os.Args[1] == "open" && f[0] == "open":
			if reason := open(f); reason != "" {
				fmt.Fprintf(out, "fail %s %s %s %s\n", f[1], f[2], f[3], strings.ReplaceAll(reason, " ", "_"))
			} else {
				fmt.Fprintf(out, "ok %s %s %s\n", f[1], f[2], f[3])
			}
		default:
			fatal("unexpected line %q", f[0])
		}
	}
	if err := in.Err(); err != nil {
		fatal("stdin: %v", err)
	}
}
