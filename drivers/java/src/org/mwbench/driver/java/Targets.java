package org.mwbench.driver.java;

import Test.RoundTrip;
import java.util.Random;

/**
 * Which servant each call of one client thread goes to (--option target), as
 * in the omniorb driver: same, servant 0 every time; random, servant
 * sequence[k] for the k-th call, the sequence drawn uniformly once, before
 * measuring, each thread starting at its own place in it. No random number
 * generator on the measured path, only an index load.
 */
final class Targets {
    private final RoundTrip[] references;
    private final int[] sequence;
    private final int mask;
    private int at;

    private Targets(RoundTrip[] references, int[] sequence, int start) {
        this.references = references;
        this.sequence = sequence;
        this.mask = sequence.length - 1;
        this.at = start;
    }

    static Targets same(RoundTrip[] references) {
        return new Targets(references, new int[] {0}, 0);
    }

    static Targets random(RoundTrip[] references, int[] sequence, int thread, int threads) {
        return new Targets(references, sequence, sequence.length / threads * thread);
    }

    RoundTrip next() {
        return references[sequence[at++ & mask]];
    }

    /**
     * Uniformly drawn indices below `servants`, from a fixed seed (every run
     * calls the same servants in the same order); a power of two long, at
     * least 65,536 and four times `servants`, so that it covers them all and
     * wraps with a mask.
     */
    static int[] randomSequence(int servants) {
        int length = 1 << 16;
        while (length < 4L * servants) {
            length *= 2;
        }
        Random generator = new Random(20020101);
        int[] sequence = new int[length];
        for (int i = 0; i < length; i++) {
            sequence[i] = generator.nextInt(servants);
        }
        return sequence;
    }
}
