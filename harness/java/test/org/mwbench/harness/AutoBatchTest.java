package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --batch auto: the smallest power of two whose batch lasts at least 100 clock reads. */
class AutoBatchTest {
    @Test
    void picksTheSmallestPowerOfTwoThatLastsAHundredClockReads() throws Exception {
        // 30 ns a call, 20 ns a clock read: 2000 ns needed; 64 calls take 1920, 128 take 3840.
        final List<Long> tried = new ArrayList<>();
        final long batch = AutoBatch.choose(calls -> {
            tried.add(calls);
            return calls * 30;
        }, 20.0, () -> false);
        assertEquals(128, batch);
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L), tried);
    }

    @Test
    void exactlyAHundredReadsIsEnough() throws Exception {
        assertEquals(4, AutoBatch.choose(calls -> calls * 500, 20.0, () -> false));
    }

    @Test
    void aSlowCallIsTimedAlone() throws Exception {
        assertEquals(1, AutoBatch.choose(calls -> 1_000_000, 20.0, () -> false));
    }

    @Test
    void aFreeCallStopsAtTheBound() throws Exception {
        assertEquals(AutoBatch.MAX_BATCH, AutoBatch.choose(calls -> 0, 20.0, () -> false));
    }

    @Test
    void aStopEndsTheProbing() throws Exception {
        assertEquals(1, AutoBatch.choose(calls -> 0, 20.0, () -> true));
    }
}
