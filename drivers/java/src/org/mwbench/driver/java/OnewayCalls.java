package org.mwbench.driver.java;

import org.mwbench.harness.Measurement;

/**
 * invocation=oneway: ping_oneway(), a oneway operation, so the sample can only be its
 * delivery: the client's clock read just before the call to the servant's entry, which the
 * servant stamps on the delivery board. The client waits for each entry before the next call
 * (a yielding poll: DeliveryBoard.waitForEntries), so that one entry is read at a time. The
 * samples are the driver's (Measurement.runReported: the header says timed_by driver).
 */
final class OnewayCalls {
    private OnewayCalls() {}

    static void measure(Measurement m, Targets pick, DeliveryBoard board, JitWarmup warmup,
            double timeoutSeconds) throws Exception {
        long timeoutNs = Math.round(timeoutSeconds * 1e9);
        warmup.run(0, () -> deliver(pick, board, timeoutNs));
        m.runReported(into -> {
            int n = 0;
            for (; n < into.length && !m.stopRequested(); n++) {
                into[n] = deliver(pick, board, timeoutNs);
            }
            return n;
        });
    }

    /** One oneway call; returns its delivery, in ns. */
    private static long deliver(Targets pick, DeliveryBoard board, long timeoutNs) {
        int next = board.entries() + 1;
        long sent = System.nanoTime();
        pick.next().ping_oneway();
        if (!board.waitForEntries(next, sent + timeoutNs)) {
            throw new IllegalStateException("ping_oneway: the servant stamped no entry within"
                    + " --timeout (the server needs --option invocation=oneway too)");
        }
        return Math.max(0, board.entryNs() - sent);
    }
}
