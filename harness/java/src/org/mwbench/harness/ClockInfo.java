package org.mwbench.harness;

import com.google.gson.JsonObject;
import java.util.Arrays;

/**
 * The one clock every sample is taken with, System.nanoTime(), and what it costs to read.
 * On Linux HotSpot reads it with clock_gettime(CLOCK_MONOTONIC), served by the vDSO: the
 * same clock as the C++ drivers', comparable across processes, never stepped by NTP.
 *
 * @param readCostNs   the median of back-to-back read pairs
 * @param resolutionNs the smallest step seen between two reads: Java cannot ask
 *                     clock_getres(), and the step it shows is what bounds a sample anyway
 */
record ClockInfo(double readCostNs, long resolutionNs) {
    private static final int PAIRS = 20_000;

    /** Measures the read cost and the step; takes a few milliseconds. */
    static ClockInfo probe() {
        // Untimed reads first, so that the loop below is compiled before it is timed.
        for (int i = 0; i < 200_000; i++) {
            System.nanoTime();
        }
        final long[] cost = new long[PAIRS];
        long step = Long.MAX_VALUE;
        for (int i = 0; i < PAIRS; i++) {
            final long a = System.nanoTime();
            final long b = System.nanoTime();
            cost[i] = b - a;
            if (b > a) {
                step = Math.min(step, b - a);
            }
        }
        Arrays.sort(cost);
        // The median, not the mean: an interrupt during one pair must not count.
        final double median = (cost[PAIRS / 2 - 1] + cost[PAIRS / 2]) / 2.0;
        return new ClockInfo(median, step == Long.MAX_VALUE ? 1 : step);
    }

    /** {"source": "CLOCK_MONOTONIC", "read_cost_ns": ..., "resolution_ns": ...}. */
    JsonObject toJson() {
        final JsonObject clock = new JsonObject();
        clock.addProperty("source", "CLOCK_MONOTONIC");
        clock.addProperty("read_cost_ns", readCostNs);
        clock.addProperty("resolution_ns", resolutionNs);
        return clock;
    }
}
