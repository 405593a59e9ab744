// Command tls is the Go side of pqdr-rustls' live interop tests
// (crates/pqdr-rustls/tests/tls/go_interop.rs): a crypto/tls server or client
// on loopback, TLS 1.3 only, restricted to the key-exchange groups given on
// the command line. Standard library only; one binary serves every group.
//
//	tls server -groups X25519MLKEM768,SecP384r1MLKEM1024 -cert server.pem -key server.key
//	    listens on 127.0.0.1 (a free port), prints "listening ADDR", then for
//	    each connection: the handshake, one line read, "go:GROUP:LINE" written
//	    back, and one report line on stdout ("server-ok group=0x11ec hrr=false
//	    msg=LINE" or "server-error: ..."). Stops when its standard input closes.
//	tls client -addr ADDR -groups X25519MLKEM768 -ca ca.pem -msg hello
//	    connects, sends "hello", reads the reply line and prints
//	    "client-ok group=0x11ec reply=LINE" (exit 0) or "client-error: ..." (exit 1).
//
// GROUP is the negotiated ConnectionState().CurveID in hex. Group names are
// crypto/tls' CurveID names (X25519MLKEM768, SecP256r1MLKEM768,
// SecP384r1MLKEM1024, X25519, CurveP256, CurveP384).
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

var groupNames = map[string]tls.CurveID{
	"X25519MLKEM768":     tls.X25519MLKEM768,
	"SecP256r1MLKEM768":  tls.SecP256r1MLKEM768,
	"SecP384r1MLKEM1024": tls.SecP384r1MLKEM1024,
	"X25519":             tls.X25519,
	"CurveP256":          tls.CurveP256,
	"CurveP384":          tls.CurveP384,
}

func groups(list string) []tls.CurveID {
	var out []tls.CurveID
	for _, name := range strings.Split(list, ",") {
		id, ok := groupNames[name]
		if !ok {
			fmt.Fprintln(os.Stderr, "unknown group", name)
			os.Exit(2)
		}
		out = append(out, id)
	}
	return out
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tls server|client [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	groupList := fs.String("groups", "X25519MLKEM768", "comma-separated CurveID names")
	cert := fs.String("cert", "", "server certificate chain (PEM)")
	key := fs.String("key", "", "server private key (PEM)")
	ca := fs.String("ca", "", "client: the CA to trust (PEM)")
	addr := fs.String("addr", "", "client: the server's address")
	msg := fs.String("msg", "hello", "client: the line to send")
	fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "server":
		server(groups(*groupList), *cert, *key)
	case "client":
		os.Exit(client(groups(*groupList), *ca, *addr, *msg))
	default:
		fmt.Fprintln(os.Stderr, "usage: tls server|client [flags]")
		os.Exit(2)
	}
}

func server(curves []tls.CurveID, certFile, keyFile string) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	config := &tls.Config{
		Certificates:     []tls.Certificate{pair},
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: curves,
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("listening", ln.Addr())
	// Stop when the test closes our standard input (or exits).
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			fmt.Println("server-error:", err)
			os.Exit(1)
		}
		serve(conn.(*tls.Conn))
	}
}

// serve handles one connection; connections are served one at a time so
// the report lines come in connection order.
func serve(conn *tls.Conn) {
	defer conn.Close()
	if err := conn.Handshake(); err != nil {
		fmt.Println("server-error:", err)
		return
	}
	state := conn.ConnectionState()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		fmt.Println("server-error: read:", err)
		return
	}
	line = strings.TrimSuffix(line, "\n")
	if _, err := fmt.Fprintf(conn, "go:0x%04x:%s\n", uint16(state.CurveID), line); err != nil {
		fmt.Println("server-error: write:", err)
		return
	}
	fmt.Printf("server-ok group=0x%04x msg=%s\n", uint16(state.CurveID), line)
}

func client(curves []tls.CurveID, caFile, addr, msg string) int {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		fmt.Println("client-error:", err)
		return 1
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		fmt.Println("client-error: no CA certificate in", caFile)
		return 1
	}
	config := &tls.Config{
		RootCAs:          roots,
		ServerName:       "localhost",
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: curves,
	}
	conn, err := tls.Dial("tcp", addr, config)
	if err != nil {
		fmt.Println("client-error:", err)
		return 1
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "%s\n", msg); err != nil {
		fmt.Println("client-error: write:", err)
		return 1
	}
	reply, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		fmt.Println("client-error: read:", err)
		return 1
	}
	fmt.Printf("client-ok group=0x%04x reply=%s\n", uint16(conn.ConnectionState().CurveID), strings.TrimSuffix(reply, "\n"))
	return 0
}
