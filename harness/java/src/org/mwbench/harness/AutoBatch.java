package org.mwbench.harness;

import java.util.Arrays;

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

    /** The batch for {@code call}: each probe is the median of {@link #PROBES} timed batches. */
    static long forCall(Measurement.Call call, double clockReadCostNs, Stopped stopped)
            throws Exception {
        final long[] took = new long[PROBES];
        return choose(calls -> {
            for (int p = 0; p < took.length; p++) {
                final long t0 = System.nanoTime();
                for (long k = 0; k < calls; k++) {
                    call.call();
                }
                took[p] = System.nanoTime() - t0;
            }
            Arrays.sort(took);
            return took[took.length / 2];
        }, clockReadCostNs, stopped);
    }

    static boolean longEnough(long batchNs, double clockReadCostNs) {
        return batchNs >= 100.0 * clockReadCostNs;
    }
}
