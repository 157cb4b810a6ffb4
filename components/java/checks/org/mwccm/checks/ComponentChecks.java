package org.mwccm.checks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.omg.CORBA.ORB;

/**
 * Checks a component server through CORBA alone, as any client would: the
 * server's endpoint file (CcmPerfHost's, or mwbench-driver-ccm's) names the
 * Receiver (component=), its home (home=) and, from CcmPerfHost, a Caller
 * home (caller_home=).
 *
 *   ComponentChecks ENDPOINT-FILE GROUP...   (navigation, lifecycle, receptacles)
 *
 * Says "ok: <group>" for each and exits 0; the first failure exits 1 naming it.
 * Messages are compared word for word: the C++ and the Java layer word them alike.
 */
public final class ComponentChecks {
    private ComponentChecks() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ComponentChecks ENDPOINT-FILE navigation|lifecycle|receptacles...");
            System.exit(2);
        }
        ORB orb = ORB.init(new String[0], null);
        org.mwccm.Cookies.register(orb);
        String line = Files.readString(Path.of(args[0])).trim();
        List<String> done = new ArrayList<>();
        try {
            for (int i = 1; i < args.length; ++i) {
                switch (args[i]) {
                    case "navigation" -> new NavigationChecks(orb, line).run();
                    case "lifecycle" -> new LifecycleChecks(orb, line).run();
                    case "receptacles" -> new ReceptacleChecks(orb, line).run();
                    default -> {
                        System.err.println("ComponentChecks: error: unknown group '" + args[i] + "'");
                        System.exit(2);
                    }
                }
                done.add(args[i]);
                System.out.println("ok: " + args[i]);
            }
        } catch (AssertionError | Exception e) {
            System.err.println("ComponentChecks: FAILED after " + done + ": " + e);
            e.printStackTrace();
            System.exit(1);
        } finally {
            orb.shutdown(false);
        }
        System.exit(0);
    }

    /** The object named `key=` in an endpoint line. */
    static org.omg.CORBA.Object object(ORB orb, String line, String key) {
        for (String word : line.split("\\s+")) {
            if (word.startsWith(key + "=")) {
                return orb.string_to_object(word.substring(key.length() + 1));
            }
        }
        throw new AssertionError("the endpoint has no " + key + "=: " + line);
    }
}
