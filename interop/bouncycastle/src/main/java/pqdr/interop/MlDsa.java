package pqdr.interop;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;

import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.HashMLDSASigner;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;

/**
 * ML-DSA (FIPS 204): keys from the 32-byte seed ξ; pure ML-DSA and HashML-DSA with
 * SHA-512, both with a non-empty context, hedged (verified by the other side) and
 * deterministic (compared byte for byte); the RFC 9881 key files in the three forms.
 */
final class MlDsa {
    private final String name;
    private final MLDSAParameters params;
    /** BouncyCastle's HashML-DSA keys carry the pre-hash in their parameters. */
    private final MLDSAParameters hashParams;

    private MlDsa(String name, MLDSAParameters params, MLDSAParameters hashParams) {
        this.name = name;
        this.params = params;
        this.hashParams = hashParams;
    }

    static MlDsa[] all() {
        return new MlDsa[] {
            new MlDsa("ml-dsa-44", MLDSAParameters.ml_dsa_44, MLDSAParameters.ml_dsa_44_with_sha512),
            new MlDsa("ml-dsa-65", MLDSAParameters.ml_dsa_65, MLDSAParameters.ml_dsa_65_with_sha512),
            new MlDsa("ml-dsa-87", MLDSAParameters.ml_dsa_87, MLDSAParameters.ml_dsa_87_with_sha512),
        };
    }

    String name() {
        return name;
    }

    private static final String[] FORMS = {"seed", "expanded", "both"};
    private static final int[] BC_FORMS = {
        MLDSAPrivateKeyParameters.SEED_ONLY,
        MLDSAPrivateKeyParameters.EXPANDED_KEY,
        MLDSAPrivateKeyParameters.BOTH,
    };

    private static byte[] expanded(MLDSAPrivateKeyParameters sk) {
        return sk.withPreferredFormat(MLDSAPrivateKeyParameters.EXPANDED_KEY).getEncoded();
    }

    /** A signature of {@code msg} with context {@code ctx}; hedged if {@code rnd} is not null. */
    private byte[] sign(boolean prehash, byte[] sk, byte[] msg, byte[] ctx, SecureRandom rnd)
            throws Exception {
        CipherParameters key = new MLDSAPrivateKeyParameters(prehash ? hashParams : params, sk);
        if (rnd != null) {
            key = new ParametersWithRandom(key, rnd);
        }
        Signer s = prehash ? new HashMLDSASigner() : new MLDSASigner();
        s.init(true, new ParametersWithContext(key, ctx));
        s.update(msg, 0, msg.length);
        return s.generateSignature();
    }

    private boolean verify(boolean prehash, byte[] pk, byte[] msg, byte[] ctx, byte[] sig) {
        Signer s = prehash ? new HashMLDSASigner() : new MLDSASigner();
        s.init(false, new ParametersWithContext(
                new MLDSAPublicKeyParameters(prehash ? hashParams : params, pk), ctx));
        s.update(msg, 0, msg.length);
        return s.verifySignature(sig);
    }

    void gen(Path root) throws Exception {
        Path dir = root.resolve(name);
        byte[] xi = Io.random(32);
        MLDSAPrivateKeyParameters key = new MLDSAPrivateKeyParameters(params, xi);
        byte[] pk = key.getPublicKeyParameters().getEncoded();
        byte[] sk = expanded(key);
        byte[] msg = Io.random(100);
        byte[] ctx = Io.random(17);
        Io.write(dir, "xi", xi);
        Io.write(dir, "pk", pk);
        Io.write(dir, "sk", sk);
        Io.write(dir, "msg", msg);
        Io.write(dir, "ctx", ctx);
        for (boolean prehash : new boolean[] {false, true}) {
            String kind = prehash ? "hash" : "pure";
            Io.write(dir, "sig." + kind, sign(prehash, sk, msg, ctx, new SecureRandom()));
            Io.write(dir, "sig." + kind + ".det", sign(prehash, sk, msg, ctx, null));
        }
        Io.write(dir, "pk.spki.der",
                SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(key.getPublicKeyParameters())
                        .getEncoded());
        for (int i = 0; i < FORMS.length; i++) {
            Io.write(dir, "sk." + FORMS[i] + ".p8.der",
                    PrivateKeyInfoFactory.createPrivateKeyInfo(key.withPreferredFormat(BC_FORMS[i]))
                            .getEncoded());
        }
        // The same key as a HashML-DSA-with-SHA512 key: BouncyCastle writes it under
        // id-hash-ml-dsa-*-with-sha512 (2.16.840.1.101.3.4.3.32-34), an OID RFC 9881 does
        // not define for keys (a difference; pqdr must refuse these files).
        MLDSAPrivateKeyParameters hashKey = new MLDSAPrivateKeyParameters(hashParams, xi);
        Io.write(dir, "pk.hash512.spki.der",
                SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(hashKey.getPublicKeyParameters())
                        .getEncoded());
        Io.write(dir, "sk.hash512.p8.der", PrivateKeyInfoFactory.createPrivateKeyInfo(hashKey).getEncoded());
    }

    void check(Path root) {
        Path dir = root.resolve(name);
        byte[] pk = Io.read(dir, "pk");
        byte[] sk = Io.read(dir, "sk");
        byte[] msg = Io.read(dir, "msg");
        byte[] ctx = Io.read(dir, "ctx");
        Io.check(name, "keygen from the same seed xi: equal pk and sk", () -> {
            MLDSAPrivateKeyParameters k = new MLDSAPrivateKeyParameters(params, Io.read(dir, "xi"));
            return Arrays.equals(k.getPublicKeyParameters().getEncoded(), pk)
                    && Arrays.equals(expanded(k), sk);
        });
        for (boolean prehash : new boolean[] {false, true}) {
            String kind = prehash ? "HashML-DSA-SHA512" : "ML-DSA";
            String file = "sig." + (prehash ? "hash" : "pure");
            byte[] sig = Io.read(dir, file);
            Io.check(name, kind + " hedged signature (with context) verifies",
                    () -> verify(prehash, pk, msg, ctx, sig));
            Io.check(name, kind + " signature of a modified message rejected",
                    () -> !verify(prehash, pk, Io.flip(msg, 0), ctx, sig));
            Io.check(name, kind + " signature under another context rejected",
                    () -> !verify(prehash, pk, msg, Io.flip(ctx, 0), sig));
            Io.check(name, kind + " deterministic signature: equal bytes",
                    () -> Arrays.equals(sign(prehash, sk, msg, ctx, null), Io.read(dir, file + ".det")));
        }
        Io.check(name, "SPKI file decodes to their public key", () -> {
            MLDSAPublicKeyParameters k = (MLDSAPublicKeyParameters)
                    PublicKeyFactory.createKey(Io.read(dir, "pk.spki.der"));
            return k.getParameters() == params && Arrays.equals(k.getEncoded(), pk);
        });
        Io.check(name, "HashML-DSA-SHA512 signature verifies with the key of their (RFC 9881) SPKI file", () -> {
            MLDSAPublicKeyParameters k = (MLDSAPublicKeyParameters)
                    PublicKeyFactory.createKey(Io.read(dir, "pk.spki.der"));
            return verify(true, k.getEncoded(), msg, ctx, Io.read(dir, "sig.hash"));
        });
        for (String form : FORMS) {
            Io.check(name, "PKCS#8 file (" + form + " form) decodes to their private key", () -> {
                MLDSAPrivateKeyParameters k = (MLDSAPrivateKeyParameters)
                        PrivateKeyFactory.createKey(Io.read(dir, "sk." + form + ".p8.der"));
                return k.getParameters() == params && Arrays.equals(expanded(k), sk);
            });
        }
    }
}
