package org.mwbench.harness;

/** Samples the application timed itself: see {@link Measurement#runReported}. */
@FunctionalInterface
public interface ReportedSamples {
    /**
     * Runs until {@code into} is full (or {@link Measurement#stopRequested}), storing each
     * duration (ns) in the order they happened; returns how many it stored.
     */
    int collect(long[] into) throws Exception;
}
