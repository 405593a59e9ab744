package pqdr.interop.bctls;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jsse.BCSSLConnection;
import org.bouncycastle.jsse.BCSSLParameters;
import org.bouncycastle.jsse.BCSSLSocket;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;
import org.bouncycastle.tls.TlsContext;

/**
 * The BouncyCastle JSSE (BCJSSE, bctls 1.84) peer of pqdr-rustls' live TLS 1.3
 * run (crates/pqdr-rustls/examples/bctls_peer.rs drives it over stdin/stdout).
 *
 * <p>Commands, one a line; one answer line each ({@code report ...} or
 * {@code error ...}):
 * <pre>
 *   server DIR CERT CA GROUP SCHEMES         listen on 127.0.0.1, print "listening PORT",
 *                                            serve one connection (mutual authentication)
 *   client DIR CERT CA GROUP SCHEMES PORT MSG  connect to 127.0.0.1:PORT as "localhost"
 * </pre>
 * CERT names DIR/CERT.der (X.509) and DIR/CERT.key (PKCS#8, RFC 9881 seed form); CA
 * names DIR/CA.der, the only trust anchor. GROUP is a BCJSSE named-group name
 * (e.g. X25519MLKEM768, MLKEM768) or "default" (BCJSSE's default list);
 * SCHEMES is a comma-separated list of BCJSSE signature-scheme names (mldsa44,
 * mldsa65, mldsa87: off by default in 1.84).
 *
 * <p>A report gives what BCJSSE negotiated: the group (its TlsContext's
 * SecurityParameters), the signature scheme of its own CertificateVerify (from
 * its FINE log line "selected credentials for signature scheme"), the key
 * algorithm of the peer's certificate, and the application data received.
 */
public final class Peer {
    private static final String SELECTED = "(1.3) selected credentials for signature scheme '";

    /**
     * BouncyCastle's loggers, held so that their levels stay set: INFO lines
     * (the security properties it read) are not shown, nor the warnings that
     * it ignores two entries of the JDK's jdk.certpath.disabledAlgorithms it
     * cannot parse (SHA1 rules; nothing here uses SHA-1).
     */
    private static final Logger BC_LOG = Logger.getLogger("org.bouncycastle");
    private static final Logger CONSTRAINTS_LOG =
            Logger.getLogger("org.bouncycastle.jsse.provider.DisabledAlgorithmConstraints");
    private static final List<Logger> SCHEME_LOGS = new ArrayList<>();

    /** The signature schemes BCJSSE logged choosing, oldest first. */
    private static final List<String> SIGNED = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        BC_LOG.setLevel(Level.WARNING);
        CONSTRAINTS_LOG.setLevel(Level.SEVERE);
        Security.insertProviderAt(new BouncyCastleProvider(), 1);
        Security.insertProviderAt(new BouncyCastleJsseProvider(), 2);
        captureSchemeLog("org.bouncycastle.jsse.provider.ProvTlsServer");
        captureSchemeLog("org.bouncycastle.jsse.provider.ProvTlsClient");

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("ready " + jar(BouncyCastleJsseProvider.class) + ", " + jar(BouncyCastleProvider.class)
                + ", Java " + System.getProperty("java.version"));
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] a = line.trim().split(" ");
            String answer;
            try {
                switch (a[0]) {
                    case "server":
                        answer = server(Path.of(a[1]), a[2], a[3], a[4], a[5].split(","));
                        break;
                    case "client":
                        answer = client(Path.of(a[1]), a[2], a[3], a[4], a[5].split(","),
                                Integer.parseInt(a[6]), a[7]);
                        break;
                    case "quit":
                        return;
                    default:
                        answer = "error unknown command " + a[0];
                }
            } catch (Exception e) {
                answer = "error " + describe(e);
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    /** The file name of the jar a class came from (its version). */
    private static String jar(Class<?> c) {
        String path = c.getProtectionDomain().getCodeSource().getLocation().getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Records BCJSSE's FINE "selected credentials" lines of {@code logger}. */
    private static void captureSchemeLog(String logger) {
        Logger log = Logger.getLogger(logger);
        SCHEME_LOGS.add(log);
        log.setLevel(Level.FINE);
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                String m = r.getMessage();
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    System.err.println(r.getLevel() + " " + r.getLoggerName() + ": " + m);
                }
                int i = m == null ? -1 : m.indexOf(SELECTED);
                if (i >= 0) {
                    String rest = m.substring(i + SELECTED.length());
                    synchronized (SIGNED) {
                        SIGNED.add(rest.substring(0, rest.indexOf('\'')));
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    private static X509Certificate cert(Path file) throws Exception {
        CertificateFactory cf = CertificateFactory.getInstance("X.509", "BC");
        return (X509Certificate) cf.generateCertificate(new ByteArrayInputStream(Files.readAllBytes(file)));
    }

    /**
     * A TLS context of BCJSSE: the key manager holds CERT with its key, the
     * trust manager the one CA.
     */
    private static SSLContext context(Path dir, String certName, String caName) throws Exception {
        X509Certificate leaf = cert(dir.resolve(certName + ".der"));
        byte[] pkcs8 = Files.readAllBytes(dir.resolve(certName + ".key"));
        // RFC 9881 ML-DSA private key (seed form) through BC's ML-DSA key factory.
        PrivateKey key = KeyFactory.getInstance("ML-DSA", "BC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        char[] pw = "pqdr".toCharArray();
        KeyStore ks = KeyStore.getInstance("PKCS12", "BC");
        ks.load(null, pw);
        ks.setKeyEntry("leaf", key, pw, new Certificate[] {leaf});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("PKIX", "BCJSSE");
        kmf.init(ks, pw);

        KeyStore ts = KeyStore.getInstance("PKCS12", "BC");
        ts.load(null, pw);
        ts.setCertificateEntry("ca", cert(dir.resolve(caName + ".der")));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
        tmf.init(ts);

        SSLContext ctx = SSLContext.getInstance("TLSv1.3", "BCJSSE");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), new SecureRandom());
        return ctx;
    }

    /** TLS 1.3 only, one named group (or BCJSSE's default list), the given signature schemes. */
    private static void configure(SSLSocket s, String group, String[] schemes, boolean client) {
        s.setEnabledProtocols(new String[] {"TLSv1.3"});
        BCSSLSocket bc = (BCSSLSocket) s;
        BCSSLParameters p = bc.getParameters();
        if (!group.equals("default")) {
            p.setNamedGroups(new String[] {group});
        }
        p.setSignatureSchemes(schemes);
        if (client) {
            // The server's name is checked against its certificate (RFC 6125).
            p.setEndpointIdentificationAlgorithm("HTTPS");
        } else {
            p.setNeedClientAuth(true);
        }
        bc.setParameters(p);
    }

    private static String server(Path dir, String certName, String caName, String group, String[] schemes)
            throws Exception {
        SSLContext ctx = context(dir, certName, caName);
        try (SSLServerSocket ss = (SSLServerSocket) ctx.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.out.println("listening " + ss.getLocalPort());
            System.out.flush();
            ss.setSoTimeout(20_000);
            try (SSLSocket s = (SSLSocket) ss.accept()) {
                s.setSoTimeout(20_000);
                configure(s, group, schemes, false);
                int before = signedCount();
                s.startHandshake();
                String msg = readLine(s);
                OutputStream out = s.getOutputStream();
                out.write(("bc:" + msg + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                return report(s, before, msg);
            }
        }
    }

    private static String client(Path dir, String certName, String caName, String group, String[] schemes,
            int port, String msg) throws Exception {
        SSLContext ctx = context(dir, certName, caName);
        try (SSLSocket s = (SSLSocket) ctx.getSocketFactory()
                .createSocket(InetAddress.getByName("127.0.0.1"), port)) {
            s.setSoTimeout(20_000);
            ((BCSSLSocket) s).setHost("localhost");
            configure(s, group, schemes, true);
            int before = signedCount();
            s.startHandshake();
            OutputStream out = s.getOutputStream();
            out.write((msg + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String reply = readLine(s);
            return report(s, before, reply);
        }
    }

    private static int signedCount() {
        synchronized (SIGNED) {
            return SIGNED.size();
        }
    }

    /** What this side negotiated and received. */
    private static String report(SSLSocket s, int before, String data) throws Exception {
        String signed;
        synchronized (SIGNED) {
            signed = SIGNED.size() == before + 1 ? SIGNED.get(before) : "none";
        }
        X509Certificate peer = (X509Certificate) s.getSession().getPeerCertificates()[0];
        return "report protocol=" + s.getSession().getProtocol()
                + " group=" + String.format("0x%04x", negotiatedGroup((BCSSLSocket) s))
                + " signed=" + signed.replace(' ', '_')
                + " peer_key=" + peer.getPublicKey().getAlgorithm()
                + " peer_sig=" + peer.getSigAlgName()
                + " data=" + data;
    }

    /**
     * The named group of the connection: BCJSSE does not expose it, so it is
     * read from the connection's TlsContext (ProvSSLConnection.getTlsContext(),
     * protected) through reflection.
     */
    private static int negotiatedGroup(BCSSLSocket s) throws Exception {
        BCSSLConnection c = s.getConnection();
        Method m = c.getClass().getDeclaredMethod("getTlsContext");
        m.setAccessible(true);
        TlsContext ctx = (TlsContext) m.invoke(c);
        return ctx.getSecurityParametersConnection().getNegotiatedGroup();
    }

    private static String readLine(SSLSocket s) throws Exception {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = s.getInputStream().read()) != -1 && c != '\n') {
            b.append((char) c);
        }
        return b.toString();
    }

    /** The exception and its causes on one line. */
    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (b.length() > 0) {
                b.append(" <- ");
            }
            b.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
        }
        return b.toString().replace('\n', ' ');
    }
}
