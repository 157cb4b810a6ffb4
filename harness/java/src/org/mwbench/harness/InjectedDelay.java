package org.mwbench.harness;

/**
 * MWBENCH_INJECT_DELAY_NS: a delay added to every measured call on purpose, with which the
 * tests check that a slower middleware shows as one (docs/driver-contract.md section 2).
 */
final class InjectedDelay {
    private InjectedDelay() {
    }

    /** The variable's nanoseconds, 0 when unset; UsageException for anything not a number. */
    static long fromEnvironment() {
        final String text = System.getenv("MWBENCH_INJECT_DELAY_NS");
        if (text == null) {
            return 0;
        }
        if (!text.matches("[0-9]{1,18}")) {
            throw new UsageException(
                    "MWBENCH_INJECT_DELAY_NS must be a number of nanoseconds, not '" + text + "'");
        }
        return Long.parseLong(text);
    }

    /** {@code call} followed by a wait of {@code delayNs}; {@code call} itself for 0. */
    static Measurement.Call slowed(Measurement.Call call, long delayNs) {
        if (delayNs == 0) {
            return call; // the normal loop has no trace of the delay
        }
        return () -> {
            call.call();
            final long until = System.nanoTime() + delayNs;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
        };
    }
}
