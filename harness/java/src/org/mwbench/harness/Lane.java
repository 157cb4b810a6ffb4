package org.mwbench.harness;

/**
 * What one measuring thread did, and its buffers: a duration and an end time per sample,
 * allocated (and so zeroed, every page touched) before anything is timed.
 */
final class Lane {
    /** Entries after each buffer's last, so that two threads' buffers share no cache line. */
    private static final int PADDING = 16;

    final long[] samples;
    final long[] ends;
    long warmupDone;
    long batch = 1;
    long startNs;
    long endNs;
    int measured;

    Lane(int capacity) {
        samples = new long[capacity + PADDING];
        ends = new long[capacity + PADDING];
    }
}
