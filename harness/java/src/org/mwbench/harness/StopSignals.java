package org.mwbench.harness;

import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT, taken from the JVM (whose default would run shutdown hooks and exit)
 * through sun.misc.Signal, the supported way in jdk.unsupported. The JVM runs each handler
 * on a thread of its own, never on the measuring thread.
 */
final class StopSignals {
    private StopSignals() {
    }

    /** From now on each SIGTERM or SIGINT calls {@code handler} with "SIGTERM" or "SIGINT". */
    static void install(Consumer<String> handler) {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> handler.accept("SIG" + signal.getName()));
        }
    }
}
