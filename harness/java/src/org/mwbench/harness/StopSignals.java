package org.mwbench.harness;

import sun.misc.Signal;

/**
 * SIGTERM and SIGINT, taken from the JVM (whose default would run shutdown hooks and exit
 * at once) through sun.misc.Signal, the supported way in jdk.unsupported. Installed as soon
 * as the arguments are read, so that a signal that arrives while the driver sets up is kept
 * for the role's stop action rather than killing the process. The JVM runs each handler on
 * a thread of its own, never on the measuring thread. (A JVM started with SIGINT ignored,
 * as a shell's background job is, keeps it ignored.)
 */
final class StopSignals {
    private String first; // guarded by this: the first signal's name, null before one came
    private Runnable stop;
    private boolean haltOnSecond;

    private StopSignals() {
    }

    static StopSignals install() {
        final StopSignals signals = new StopSignals();
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> signals.arrived("SIG" + signal.getName()));
        }
        return signals;
    }

    /**
     * What the first signal does (at once, if one has arrived already). With
     * {@code haltOnSecond} a second signal, sent because a call is stuck (a hung server),
     * ends the process at once with status 1.
     */
    synchronized void onStop(Runnable action, boolean haltOnSecond) {
        this.stop = action;
        this.haltOnSecond = haltOnSecond;
        if (first != null) {
            action.run();
        }
    }

    /** "SIGTERM" or "SIGINT", or null if no signal has arrived. */
    synchronized String first() {
        return first;
    }

    private synchronized void arrived(String name) {
        if (first != null) {
            if (haltOnSecond) {
                Runtime.getRuntime().halt(1);
            }
            return;
        }
        first = name;
        if (stop != null) {
            stop.run();
        }
    }
}
