package pqdr.interop;

import java.nio.file.Path;
import java.util.Arrays;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.generators.CMCEKeyPairGenerator;
import org.bouncycastle.crypto.kems.CMCEKEMExtractor;
import org.bouncycastle.crypto.kems.CMCEKEMGenerator;
import org.bouncycastle.crypto.params.CMCEKeyGenerationParameters;
import org.bouncycastle.crypto.params.CMCEParameters;
import org.bouncycastle.crypto.params.CMCEPrivateKeyParameters;
import org.bouncycastle.crypto.params.CMCEPublicKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;

/**
 * Classic McEliece: every set BouncyCastle's CMCE has. Key generation and encapsulation
 * draw from the SHAKE256 stream of a 32-byte seed ({@link Io.StreamRandom}).
 */
// CMCE is deprecated in BouncyCastle 1.87 (still shipped, still tested here).
@SuppressWarnings("deprecation")
final class Cmce extends Kem {
    private final CMCEParameters params;

    Cmce(CMCEParameters params) {
        this.params = params;
    }

    /** BouncyCastle 1.87 has no mceliece348864 sets (pqdr has them). */
    static Kem[] all() {
        CMCEParameters[] sets = {
            CMCEParameters.mceliece460896, CMCEParameters.mceliece460896f,
            CMCEParameters.mceliece460896pc, CMCEParameters.mceliece460896pcf,
            CMCEParameters.mceliece6688128, CMCEParameters.mceliece6688128f,
            CMCEParameters.mceliece6688128pc, CMCEParameters.mceliece6688128pcf,
            CMCEParameters.mceliece6960119, CMCEParameters.mceliece6960119f,
            CMCEParameters.mceliece6960119pc, CMCEParameters.mceliece6960119pcf,
            CMCEParameters.mceliece8192128, CMCEParameters.mceliece8192128f,
            CMCEParameters.mceliece8192128pc, CMCEParameters.mceliece8192128pcf,
        };
        Kem[] out = new Kem[sets.length];
        for (int i = 0; i < sets.length; i++) {
            out[i] = new Cmce(sets[i]);
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
        CMCEKeyPairGenerator g = new CMCEKeyPairGenerator();
        g.init(new CMCEKeyGenerationParameters(new Io.StreamRandom(seed), params));
        AsymmetricCipherKeyPair kp = g.generateKeyPair();
        return new byte[][] {
            ((CMCEPublicKeyParameters) kp.getPublic()).getEncoded(),
            ((CMCEPrivateKeyParameters) kp.getPrivate()).getEncoded(),
        };
    }

    @Override
    byte[][] encaps(byte[] pk, byte[] eseed) {
        SecretWithEncapsulation s = new CMCEKEMGenerator(new Io.StreamRandom(eseed))
                .generateEncapsulated(new CMCEPublicKeyParameters(params, pk));
        return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    @Override
    byte[] decaps(byte[] sk, byte[] ct) {
        return new CMCEKEMExtractor(new CMCEPrivateKeyParameters(params, sk)).extractSecret(ct);
    }

    /** BouncyCastle's own key files (its CMCE OIDs, BCObjectIdentifiers). */
    @Override
    void writeKeyFiles(Path dir, byte[] seed, byte[][] keys) throws Exception {
        Io.write(dir, "pk.spki.der", SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(
                new CMCEPublicKeyParameters(params, keys[0])).getEncoded());
        Io.write(dir, "sk.p8.der", PrivateKeyInfoFactory.createPrivateKeyInfo(
                new CMCEPrivateKeyParameters(params, keys[1])).getEncoded());
    }

    @Override
    void checkKeyFiles(Path dir, byte[] pk, byte[] sk) {
        Io.check(name(), "SPKI file decodes to their public key", () -> {
            CMCEPublicKeyParameters k = (CMCEPublicKeyParameters)
                    PublicKeyFactory.createKey(Io.read(dir, "pk.spki.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), pk);
        });
        Io.check(name(), "PKCS#8 file decodes to their private key", () -> {
            CMCEPrivateKeyParameters k = (CMCEPrivateKeyParameters)
                    PrivateKeyFactory.createKey(Io.read(dir, "sk.p8.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), sk);
        });
    }
}
