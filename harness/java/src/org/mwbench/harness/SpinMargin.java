package org.mwbench.harness;

import java.util.Arrays;

/**
 * How early the open loop's sender stops sleeping before a call's intended time, as the C++
 * harness's mwbench::SpinMargin (docs/driver-contract-open-loop.md): a park ends late, so
 * the sender parks until the intended time less this margin and waits the rest without
 * sleeping, yielding the CPU at every turn. Calibrated during the warm-up, whose parks go all
 * the way to the intended time: the 90th percentile of how late the latest 1024 of them
 * woke, at most a quarter of the mean gap; 0 without a warm-up park to learn from.
 */
final class SpinMargin {
    static final double MAX_GAP_FRACTION = 0.25;
    static final double LATENESS_PERCENTILE = 0.90;
    static final int CALIBRATION_SLEEPS = 1024;

    private final long maxMarginNs;
    private final long[] lateness = new long[CALIBRATION_SLEEPS]; // a ring of the latest
    private long sleeps;
    private long latenessPercentileNs;
    private long marginNs;
    private boolean settled;

    SpinMargin(double meanGapNs) {
        maxMarginNs = Math.round(MAX_GAP_FRACTION * meanGapNs);
    }

    boolean calibrating() {
        return !settled;
    }

    /** While calibrating: how late a park woke (0 if on time); afterwards nothing. */
    void recordLateness(long lateNs) {
        if (settled) {
            return;
        }
        lateness[(int) (sleeps % lateness.length)] = lateNs;
        sleeps++;
    }

    /** Ends the calibration: the margin from the parks recorded so far. */
    void settle() {
        if (settled) {
            return;
        }
        settled = true;
        final int kept = (int) Math.min(sleeps, lateness.length);
        if (kept == 0) {
            return;
        }
        final long[] sorted = Arrays.copyOf(lateness, kept);
        Arrays.sort(sorted);
        latenessPercentileNs = sorted[(int) Math.ceil(LATENESS_PERCENTILE * kept) - 1];
        marginNs = Math.min(latenessPercentileNs, maxMarginNs);
    }

    long marginNs() {
        return marginNs;
    }

    long sleeps() {
        return sleeps;
    }

    long latenessPercentileNs() {
        return latenessPercentileNs;
    }

    long maxMarginNs() {
        return maxMarginNs;
    }
}
