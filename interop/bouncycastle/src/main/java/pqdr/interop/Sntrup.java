package pqdr.interop;

import java.nio.file.Path;
import java.util.Arrays;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimeKEMExtractor;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimeKEMGenerator;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimeKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimeKeyPairGenerator;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimeParameters;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimePrivateKeyParameters;
import org.bouncycastle.pqc.crypto.ntruprime.SNTRUPrimePublicKeyParameters;
import org.bouncycastle.pqc.crypto.util.PrivateKeyFactory;
import org.bouncycastle.pqc.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.pqc.crypto.util.PublicKeyFactory;
import org.bouncycastle.pqc.crypto.util.SubjectPublicKeyInfoFactory;

/**
 * Streamlined NTRU Prime: every set BouncyCastle's SNTRUPrime has. Key generation and
 * encapsulation draw from the SHAKE256 stream of a 32-byte seed ({@link Io.StreamRandom}).
 */
final class Sntrup extends Kem {
    private final SNTRUPrimeParameters params;

    Sntrup(SNTRUPrimeParameters params) {
        this.params = params;
    }

    static Kem[] all() {
        SNTRUPrimeParameters[] sets = {
            SNTRUPrimeParameters.sntrup653, SNTRUPrimeParameters.sntrup761,
            SNTRUPrimeParameters.sntrup857, SNTRUPrimeParameters.sntrup953,
            SNTRUPrimeParameters.sntrup1013, SNTRUPrimeParameters.sntrup1277,
        };
        Kem[] out = new Kem[sets.length];
        for (int i = 0; i < sets.length; i++) {
            out[i] = new Sntrup(sets[i]);
        }
        return out;
    }

    @Override
    String name() {
        return params.getName();
    }

    @Override
    int seedSize() {
        return 32;
    }

    @Override
    int encapsSeedSize() {
        return 32;
    }

    @Override
    byte[][] keygen(byte[] seed) {
        SNTRUPrimeKeyPairGenerator g = new SNTRUPrimeKeyPairGenerator();
        g.init(new SNTRUPrimeKeyGenerationParameters(new Io.StreamRandom(seed), params));
        AsymmetricCipherKeyPair kp = g.generateKeyPair();
        return new byte[][] {
            ((SNTRUPrimePublicKeyParameters) kp.getPublic()).getEncoded(),
            ((SNTRUPrimePrivateKeyParameters) kp.getPrivate()).getEncoded(),
        };
    }

    @Override
    byte[][] encaps(byte[] pk, byte[] eseed) {
        SecretWithEncapsulation s = new SNTRUPrimeKEMGenerator(new Io.StreamRandom(eseed))
                .generateEncapsulated(new SNTRUPrimePublicKeyParameters(params, pk));
        return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    /**
     * The private key from its bytes (NTRU Prime spec §2.3 / the reference's sk layout:
     * f, 1/g in R/3, pk, rho, Hash4(pk)): BouncyCastle takes the five parts.
     */
    private SNTRUPrimePrivateKeyParameters privateKey(byte[] sk) {
        int small = (params.getP() + 3) / 4;
        int pkLen = params.getPublicKeyBytes();
        int[] ends = {small, 2 * small, 2 * small + pkLen, 3 * small + pkLen, sk.length};
        byte[][] parts = new byte[5][];
        int start = 0;
        for (int i = 0; i < 5; i++) {
            parts[i] = Arrays.copyOfRange(sk, start, ends[i]);
            start = ends[i];
        }
        return new SNTRUPrimePrivateKeyParameters(params, parts[0], parts[1], parts[2], parts[3], parts[4]);
    }

    @Override
    byte[] decaps(byte[] sk, byte[] ct) {
        return new SNTRUPrimeKEMExtractor(privateKey(sk)).extractSecret(ct);
    }

    /** BouncyCastle's own key files (OIDs 1.3.6.1.4.1.22554.5.7.2.1-6). */
    @Override
    void writeKeyFiles(Path dir, byte[] seed, byte[][] keys) throws Exception {
        Io.write(dir, "pk.spki.der", SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(
                new SNTRUPrimePublicKeyParameters(params, keys[0])).getEncoded());
        Io.write(dir, "sk.p8.der",
                PrivateKeyInfoFactory.createPrivateKeyInfo(privateKey(keys[1])).getEncoded());
    }

    @Override
    void checkKeyFiles(Path dir, byte[] pk, byte[] sk) {
        Io.check(name(), "SPKI file decodes to their public key", () -> {
            SNTRUPrimePublicKeyParameters k = (SNTRUPrimePublicKeyParameters)
                    PublicKeyFactory.createKey(Io.read(dir, "pk.spki.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), pk);
        });
        Io.check(name(), "PKCS#8 file decodes to their private key", () -> {
            SNTRUPrimePrivateKeyParameters k = (SNTRUPrimePrivateKeyParameters)
                    PrivateKeyFactory.createKey(Io.read(dir, "sk.p8.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), sk);
        });
    }
}
