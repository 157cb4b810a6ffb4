package org.mwbench.harness;

/**
 * The rule of --batch auto (docs/driver-contract.md section 2), as in the C++ harness: the
 * smallest power of two whose batch lasts at least 100 clock reads, judged by the median of
 * five timed batches so that one preempted probe does not pick a batch that is too small.
 */
final class AutoBatch {
    /** Upper bound, in case a call costs nothing. */
    static final long MAX_BATCH = 1L << 24;
    static final int PROBES = 5;

    /** Times {@code batch} calls {@link #PROBES} times; returns the median, in ns. */
    interface Timer {
        long medianNs(long batch) throws Exception;
    }

    /** Stops the probing early (a signal, a failure). */
    interface Stopped {
        boolean now();
    }

    private AutoBatch() {
    }

    static long choose(Timer timer, double clockReadCostNs, Stopped stopped) throws Exception {
        long batch = 1;
        for (; batch < MAX_BATCH && !stopped.now(); batch *= 2) {
            if (longEnough(timer.medianNs(batch), clockReadCostNs)) {
                break;
            }
        }
        return batch;
    }

    static boolean longEnough(long batchNs, double clockReadCostNs) {
        return batchNs >= 100.0 * clockReadCostNs;
    }
}
