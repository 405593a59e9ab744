package pqdr.interop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * BouncyCastle side of the pqdr interop run ({@code scripts/bc-interop.sh}).
 *
 * <pre>
 *   java pqdr.interop.Main gen   DIR   writes DIR/bc/&lt;set&gt;/...
 *   java pqdr.interop.Main check DIR   checks DIR/pqdr/&lt;set&gt;/... (pqdr's files)
 * </pre>
 *
 * Every check prints one line {@code ok|FAIL <set> pqdr->bc <what>}; the exit status is 1
 * if any failed.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[0].equals("gen") || args[0].equals("check"))) {
            System.err.println("usage: Main gen|check DIR [set ...]");
            System.exit(2);
        }
        boolean gen = args[0].equals("gen");
        Path dir = Path.of(args[1]).resolve(gen ? "bc" : "pqdr");
        List<String> only = List.of(args).subList(2, args.length);
        List<Kem> kems = new ArrayList<>();
        kems.addAll(List.of(MlKem.all()));
        kems.add(new XWing());
        kems.addAll(List.of(Sntrup.all()));
        kems.addAll(List.of(Cmce.all()));
        for (MlDsa d : MlDsa.all()) {
            if (!only.isEmpty() && !only.contains(d.name())) {
                continue;
            }
            if (gen) {
                d.gen(dir);
            } else if (dir.resolve(d.name()).toFile().isDirectory()) {
                d.check(dir);
            } else {
                Io.check(d.name(), "pqdr wrote files for this set", () -> false);
            }
        }
        for (Kem k : kems) {
            if (!only.isEmpty() && !only.contains(k.name())) {
                continue;
            }
            if (gen) {
                k.gen(dir);
            } else if (dir.resolve(k.name()).toFile().isDirectory()) {
                k.check(dir);
            } else {
                Io.check(k.name(), "pqdr wrote files for this set", () -> false);
            }
        }
        if (!gen) {
            System.err.println("bc: " + Io.passed() + " passed, " + Io.failed() + " failed");
        }
        System.exit(Io.failed() == 0 ? 0 : 1);
    }
}
