package pqdr.interop;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The exchange every KEM runs. {@code gen} writes, per parameter set: the key-generation
 * seed, the key pair it gives, an encapsulation seed with the ciphertext and shared secret
 * it gives to that key, and a ciphertext with one bit flipped with the secret our
 * decapsulation returns for it (implicit rejection). {@code check} reads the other side's
 * files and redoes each step with BouncyCastle.
 */
abstract class Kem {
    /** The set's name, as pqdr's example and the directory use it. */
    abstract String name();

    abstract int seedSize();

    abstract int encapsSeedSize();

    /** {pk, sk} from a key-generation seed. */
    abstract byte[][] keygen(byte[] seed) throws Exception;

    /** {ct, ss}: encapsulation to {@code pk} with the randomness of {@code encapsSeed}. */
    abstract byte[][] encaps(byte[] pk, byte[] encapsSeed) throws Exception;

    abstract byte[] decaps(byte[] sk, byte[] ct) throws Exception;

    /** Key files (PKCS#8, SPKI) this family writes; none by default. */
    void writeKeyFiles(Path dir, byte[] seed, byte[][] keys) throws Exception {}

    /** Checks of the other side's key files; none by default. */
    void checkKeyFiles(Path dir, byte[] pk, byte[] sk) {}

    void gen(Path root) throws Exception {
        Path dir = root.resolve(name());
        byte[] seed = Io.random(seedSize());
        byte[][] keys = keygen(seed);
        byte[] eseed = Io.random(encapsSeedSize());
        byte[][] enc = encaps(keys[0], eseed);
        byte[] bad = Io.flip(enc[0], enc[0].length - 1);
        Io.write(dir, "seed", seed);
        Io.write(dir, "pk", keys[0]);
        Io.write(dir, "sk", keys[1]);
        Io.write(dir, "eseed", eseed);
        Io.write(dir, "ct", enc[0]);
        Io.write(dir, "ss", enc[1]);
        Io.write(dir, "ct.bad", bad);
        Io.write(dir, "ss.bad", decaps(keys[1], bad));
        writeKeyFiles(dir, seed, keys);
    }

    void check(Path root) {
        Path dir = root.resolve(name());
        String alg = name();
        byte[] pk = Io.read(dir, "pk");
        byte[] sk = Io.read(dir, "sk");
        byte[] ct = Io.read(dir, "ct");
        byte[] ss = Io.read(dir, "ss");
        Io.check(alg, "keygen from the same seed: equal pk and sk", () -> {
            byte[][] keys = keygen(Io.read(dir, "seed"));
            return Arrays.equals(keys[0], pk) && Arrays.equals(keys[1], sk);
        });
        Io.check(alg, "decaps of their ciphertext: equal shared secret",
                () -> Arrays.equals(decaps(sk, ct), ss));
        Io.check(alg, "encaps from the same randomness: equal ciphertext and secret", () -> {
            byte[][] enc = encaps(pk, Io.read(dir, "eseed"));
            return Arrays.equals(enc[0], ct) && Arrays.equals(enc[1], ss);
        });
        Io.check(alg, "decaps of a modified ciphertext: equal implicit-rejection secret",
                () -> Arrays.equals(decaps(sk, Io.read(dir, "ct.bad")), Io.read(dir, "ss.bad")));
        checkKeyFiles(dir, pk, sk);
    }
}
