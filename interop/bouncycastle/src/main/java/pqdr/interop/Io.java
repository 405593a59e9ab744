package pqdr.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

import org.bouncycastle.crypto.digests.SHAKEDigest;

/** Files of the exchange directory, the check report, and the shared randomness stream. */
final class Io {
    private Io() {}

    /** Direction of every check this program runs: the files were written by pqdr. */
    static final String DIRECTION = "pqdr->bc";

    private static int passed;
    private static int failed;

    static byte[] read(Path dir, String name) {
        try {
            return Files.readAllBytes(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path dir, String name, byte[] data) {
        try {
            Files.createDirectories(dir);
            Files.write(dir.resolve(name), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(Path dir, String name) {
        return Files.exists(dir.resolve(name));
    }

    static byte[] random(int n) {
        byte[] out = new byte[n];
        new SecureRandom().nextBytes(out);
        return out;
    }

    /** A copy of {@code data} with bit 0 of byte {@code i} flipped. */
    static byte[] flip(byte[] data, int i) {
        byte[] out = data.clone();
        out[i] ^= 1;
        return out;
    }

    interface Check {
        boolean run() throws Exception;
    }

    /** One counted line: {@code ok|FAIL <alg> pqdr->bc <what>}; an exception is a failure. */
    static void check(String alg, String what, Check c) {
        String detail = "";
        boolean ok;
        try {
            ok = c.run();
        } catch (Exception | AssertionError e) {
            ok = false;
            detail = " (" + e + ")";
        }
        if (ok) {
            passed++;
        } else {
            failed++;
        }
        System.out.println((ok ? "ok " : "FAIL ") + alg + " " + DIRECTION + " " + what + detail);
    }

    static int failed() {
        return failed;
    }

    static int passed() {
        return passed;
    }

    /**
     * The randomness both sides feed to key generation / encapsulation where the API
     * takes no explicit seed: the SHAKE256 output stream of a 32-byte seed, handed out in
     * order, whatever the sizes of the individual requests.
     */
    static final class StreamRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final transient SHAKEDigest shake = new SHAKEDigest(256);

        StreamRandom(byte[] seed) {
            shake.update(seed, 0, seed.length);
        }

        @Override
        public void nextBytes(byte[] out) {
            shake.doOutput(out, 0, out.length);
        }
    }
}
