package pqdr.interop;

import java.nio.file.Path;
import java.util.Arrays;

import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.kems.MLKEMExtractor;
import org.bouncycastle.crypto.kems.MLKEMGenerator;
import org.bouncycastle.crypto.params.MLKEMParameters;
import org.bouncycastle.crypto.params.MLKEMPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLKEMPublicKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;

/**
 * ML-KEM (FIPS 203): keys from the 64-byte seed d ‖ z, encapsulation from the 32-byte m,
 * and the RFC 9935 key files in the three private-key forms.
 */
final class MlKem extends Kem {
    private final String name;
    private final MLKEMParameters params;

    MlKem(String name, MLKEMParameters params) {
        this.name = name;
        this.params = params;
    }

    static Kem[] all() {
        return new Kem[] {
            new MlKem("ml-kem-512", MLKEMParameters.ml_kem_512),
            new MlKem("ml-kem-768", MLKEMParameters.ml_kem_768),
            new MlKem("ml-kem-1024", MLKEMParameters.ml_kem_1024),
        };
    }

    @Override
    String name() {
        return name;
    }

    @Override
    int seedSize() {
        return 64;
    }

    @Override
    int encapsSeedSize() {
        return 32;
    }

    /** The expanded decapsulation key (FIPS 203 §7.1, 768k + 96 bytes). */
    private static byte[] expanded(MLKEMPrivateKeyParameters sk) {
        return sk.withPreferredFormat(MLKEMPrivateKeyParameters.EXPANDED_KEY).getEncoded();
    }

    @Override
    byte[][] keygen(byte[] seed) {
        MLKEMPrivateKeyParameters sk = new MLKEMPrivateKeyParameters(params, seed);
        return new byte[][] {sk.getPublicKeyParameters().getEncoded(), expanded(sk)};
    }

    @Override
    byte[][] encaps(byte[] pk, byte[] m) {
        SecretWithEncapsulation s = MLKEMGenerator.internalGenerateEncapsulated(
                new MLKEMPublicKeyParameters(params, pk), m);
        return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    @Override
    byte[] decaps(byte[] sk, byte[] ct) {
        return new MLKEMExtractor(new MLKEMPrivateKeyParameters(params, sk)).extractSecret(ct);
    }

    private static boolean throwsIllegalArgument(Runnable r) {
        try {
            r.run();
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    private static final String[] FORMS = {"seed", "expanded", "both"};
    private static final int[] BC_FORMS = {
        MLKEMPrivateKeyParameters.SEED_ONLY,
        MLKEMPrivateKeyParameters.EXPANDED_KEY,
        MLKEMPrivateKeyParameters.BOTH,
    };

    @Override
    void writeKeyFiles(Path dir, byte[] seed, byte[][] keys) throws Exception {
        MLKEMPrivateKeyParameters sk = new MLKEMPrivateKeyParameters(params, seed);
        Io.write(dir, "pk.spki.der",
                SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(sk.getPublicKeyParameters())
                        .getEncoded());
        for (int i = 0; i < FORMS.length; i++) {
            Io.write(dir, "sk." + FORMS[i] + ".p8.der",
                    PrivateKeyInfoFactory.createPrivateKeyInfo(sk.withPreferredFormat(BC_FORMS[i]))
                            .getEncoded());
        }
    }

    @Override
    void checkKeyFiles(Path dir, byte[] pk, byte[] sk) {
        Io.check(name, "their pk with a coefficient set to 4095 (>= q) rejected (FIPS 203 §7.2)", () -> {
            byte[] bad = pk.clone();
            bad[0] = (byte) 0xff;
            bad[1] |= 0x0f;
            return throwsIllegalArgument(() -> new MLKEMPublicKeyParameters(params, bad));
        });
        Io.check(name, "their expanded sk with a modified H(ek) rejected (FIPS 203 §7.3)",
                () -> throwsIllegalArgument(() -> new MLKEMPrivateKeyParameters(
                        params, Io.flip(sk, sk.length - 40))));
        Io.check(name, "SPKI file decodes to their public key", () -> {
            MLKEMPublicKeyParameters k = (MLKEMPublicKeyParameters)
                    PublicKeyFactory.createKey(Io.read(dir, "pk.spki.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), pk);
        });
        for (String form : FORMS) {
            Io.check(name, "PKCS#8 file (" + form + " form) decodes to their private key", () -> {
                MLKEMPrivateKeyParameters k = (MLKEMPrivateKeyParameters)
                        PrivateKeyFactory.createKey(Io.read(dir, "sk." + form + ".p8.der"));
                return k.getParameters() == params && Arrays.equals(expanded(k), sk);
            });
        }
    }
}
