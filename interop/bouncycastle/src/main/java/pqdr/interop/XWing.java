package pqdr.interop;

import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMExtractor;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMGenerator;
import org.bouncycastle.pqc.crypto.xwing.XWingPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingPublicKeyParameters;

/**
 * X-Wing (draft-connolly-cfrg-xwing-kem, the MLKEM768-X25519 of
 * draft-irtf-cfrg-concrete-hybrid-kems): the 32-byte seed is the private key; the 64-byte
 * encapsulation seed is the ML-KEM m followed by the ephemeral X25519 scalar, which
 * BouncyCastle draws in that order from {@link Io.StreamRandom}.
 */
final class XWing extends Kem {
    @Override
    String name() {
        return "x-wing";
    }

    @Override
    int seedSize() {
        return 32;
    }

    @Override
    int encapsSeedSize() {
        return 64;
    }

    @Override
    byte[][] keygen(byte[] seed) {
        XWingPrivateKeyParameters sk = new XWingPrivateKeyParameters(seed);
        return new byte[][] {sk.getPublicKeyParameters().getEncoded(), sk.getEncoded()};
    }

    /** A SecureRandom handing out {@code bytes} exactly, in order. */
    private static final class Fixed extends java.security.SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;
        private int used;

        Fixed(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            if (used + out.length > bytes.length) {
                throw new IllegalStateException("more randomness drawn than the 64-byte seed");
            }
            System.arraycopy(bytes, used, out, 0, out.length);
            used += out.length;
        }
    }

    @Override
    byte[][] encaps(byte[] pk, byte[] eseed) {
        SecretWithEncapsulation s = new XWingKEMGenerator(new Fixed(eseed))
                .generateEncapsulated(new XWingPublicKeyParameters(pk));
        return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    @Override
    byte[] decaps(byte[] sk, byte[] ct) {
        return new XWingKEMExtractor(new XWingPrivateKeyParameters(sk)).extractSecret(ct);
    }
}
