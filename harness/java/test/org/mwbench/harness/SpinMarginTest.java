package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * The open loop's spin margin, as the C++ harness's (spin_margin_gtest.cpp): its percentile
 * and bound, and the sender on a simulated clock whose parks wake late by set amounts and
 * whose spins cost a set time per turn. Every figure is exact; no real time counts.
 */
class SpinMarginTest {
    private static final long US = 1_000;
    private static final long SECOND = 1_000_000_000L;

    /** An open loop of {@code warmup} + {@code samples} calls; its lags and header. */
    private record Outcome(long[] lag, JsonObject header) {
    }

    private static Outcome run(SimulatedServer server, String load, int warmup, int samples)
            throws Exception {
        final OpenLoop loop = new OpenLoop(Load.parse(load), 1, warmup, samples, server);
        server.answering(loop);
        loop.run(server::send, () -> false, () -> { }, SECOND);
        final long[] lag = new long[samples];
        loop.tally(new long[samples], new long[samples], lag, new long[samples]);
        return new Outcome(lag, loop.header());
    }

    @Test
    void isTheNinetiethPercentileOfTheWarmUpParksLateness() {
        final SpinMargin margin = new SpinMargin(1e6);
        for (long late = 100; late >= 1; late--) {
            margin.recordLateness(late * US);
        }
        margin.settle();
        assertEquals(100, margin.sleeps());
        assertEquals(90 * US, margin.latenessPercentileNs());
        assertEquals(90 * US, margin.marginNs());
        margin.recordLateness(SECOND); // after the calibration: ignored
        assertEquals(100, margin.sleeps());
    }

    @Test
    void isAtMostAQuarterOfTheMeanGapAndZeroWithoutParks() {
        final SpinMargin margin = new SpinMargin(500 * US);
        for (int i = 0; i < 10; i++) {
            margin.recordLateness(400 * US);
        }
        margin.settle();
        assertEquals(125 * US, margin.maxMarginNs());
        assertEquals(125 * US, margin.marginNs());
        final SpinMargin none = new SpinMargin(500 * US);
        none.settle();
        assertEquals(0, none.marginNs());
    }

    @Test
    void parksThatWakeLateSendOnTimeOnceCalibrated() throws Exception {
        // Every park wakes 30 us late: once calibrated, the sender parks until 30 us before
        // each intended time and sends on time without a spin.
        final SimulatedServer server = new SimulatedServer(10 * US, SECOND * 100, 0);
        server.lateness = new long[] {30 * US};
        final Outcome o = run(server, "constant:1000", 20, 100);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, o.lag()[i], "call " + i);
        }
        final JsonObject h = o.header();
        assertEquals(30 * US, h.get("spin_margin_ns").getAsLong());
        // Call 0 is due at the start; a park that a reply ended is no sample.
        assertEquals(19, h.get("calibration_sleeps").getAsLong());
        assertEquals(30 * US, h.get("calibration_lateness_p90_ns").getAsLong());
        assertEquals(0, server.spins);
    }

    @Test
    void aBoundedMarginLeavesSomeLatenessAndSpinsWithinIt() throws Exception {
        // 2000 calls/s, parks 400 us late: the margin stops at 125 us, so the measured calls
        // go 275 us late; the first, 100 us after the last warm-up call, spins them.
        final SimulatedServer server = new SimulatedServer(10 * US, SECOND * 100, 0);
        server.lateness = new long[] {400 * US};
        final Outcome o = run(server, "constant:2000", 10, 50);
        assertEquals(125 * US, o.header().get("spin_margin_ns").getAsLong());
        assertEquals(0, o.lag()[0]);
        for (int i = 1; i < 50; i++) {
            assertEquals(275 * US, o.lag()[i], "call " + i);
        }
        assertEquals(100, server.spins);
    }

    @Test
    void withoutAWarmUpTheSenderOnlyParks() throws Exception {
        final SimulatedServer server = new SimulatedServer(10 * US, SECOND * 100, 0);
        server.lateness = new long[] {30 * US};
        final Outcome o = run(server, "constant:1000", 0, 20);
        assertEquals(0, o.header().get("spin_margin_ns").getAsLong());
        assertEquals(0, o.header().get("calibration_sleeps").getAsLong());
        assertEquals(30 * US, o.lag()[1]);
        assertEquals(0, server.spins);
    }
}
