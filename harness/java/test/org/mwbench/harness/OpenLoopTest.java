package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The open loop's schedule and bookkeeping against a simulated clock and server. */
class OpenLoopTest {
    private static final long SECOND = 1_000_000_000L;

    /** What one open loop on a simulated server measured. */
    private record Outcome(int count, long[] response, long[] service, long[] lag,
                           JsonObject header, long wallNs) {
    }

    private static Outcome run(SimulatedServer server, String load, long seed, int warmup,
                               int samples) throws Exception {
        final OpenLoop loop = new OpenLoop(Load.parse(load), seed, warmup, samples, server);
        server.answering(loop);
        loop.run(server::send, () -> false, () -> { }, SECOND);
        final long[] response = new long[samples];
        final long[] service = new long[samples];
        final long[] lag = new long[samples];
        final int count = loop.tally(response, service, lag, new long[samples]);
        return new Outcome(count, response, service, lag, loop.header(), loop.measuredWallNs());
    }

    @Test
    void aConstantRateSendsAtExactlyItsIntendedTimes() throws Exception {
        final SimulatedServer server = new SimulatedServer(200_000, SECOND * 100, 0);
        final Outcome o = run(server, "constant:3000", 7, 5, 300);
        assertEquals(305, server.arrivals.size());
        for (int i = 0; i < 305; i++) {
            assertEquals(SimulatedServer.START_NS + Math.round(i * 1e9 / 3000),
                    server.arrivals.get(i), "call " + i);
        }
        assertEquals(300, o.count());
        for (int i = 0; i < 300; i++) {
            assertEquals(200_000, o.response()[i]);
            assertEquals(200_000, o.service()[i]);
            assertEquals(0, o.lag()[i]);
        }
        final JsonObject h = o.header();
        assertEquals("constant", h.get("kind").getAsString());
        assertEquals(3000.0, h.get("rate_per_s").getAsDouble());
        assertEquals(300, h.get("calls").getAsLong());
        assertEquals(0, h.get("lost").getAsLong());
        assertEquals(0, h.get("late_sends").getAsLong());
        assertEquals(333_333, h.get("late_threshold_ns").getAsLong());
        assertEquals(1, h.get("outstanding_at_end").getAsLong()); // the last call's reply
        final long span = Math.round(304 * 1e9 / 3000) - Math.round(5 * 1e9 / 3000);
        assertEquals(300 * 1e9 / span, h.get("offered_per_s").getAsDouble(), 1e-9);
        assertEquals(span + 200_000, o.wallNs());
        assertEquals(300 * 1e9 / (span + 200_000), h.get("achieved_per_s").getAsDouble(), 1e-9);
    }

    @Test
    void aPoissonScheduleIsTheSeedsAndHasExponentialGaps() {
        final Load load = Load.parse("poisson:1000");
        final long[] one = new long[100_001];
        final long[] again = new long[one.length];
        final long[] other = new long[one.length];
        OpenLoop.schedule(load, 42, one);
        OpenLoop.schedule(load, 42, again);
        OpenLoop.schedule(load, 43, other);
        assertArrayEquals(one, again);
        assertNotEquals(Arrays.toString(one), Arrays.toString(other));
        assertEquals(0, one[0]);
        double sum = 0;
        double squares = 0;
        for (int i = 1; i < one.length; i++) {
            final double gap = one[i] - one[i - 1];
            assertTrue(gap >= 0);
            sum += gap;
            squares += gap * gap;
        }
        final int n = one.length - 1;
        final double mean = sum / n;
        final double deviation = Math.sqrt(squares / n - mean * mean);
        // An exponential distribution's deviation is its mean; 1e5 gaps put both within 2%.
        assertEquals(1e6, mean, 2e4);
        assertEquals(1e6, deviation, 2e4);
    }

    @Test
    void aStalledServerDelaysEveryCallScheduledDuringTheStall() throws Exception {
        // 1000 calls/s, 100 us each, one stall of 20 ms half a second in.
        final long stall = 20_000_000;
        final long bound = 1_000_000;
        final SimulatedServer server = new SimulatedServer(100_000, SECOND / 2, stall);
        final Outcome o = run(server, "constant:1000", 1, 0, 2000);
        assertEquals(2000, o.count());
        final long above = Arrays.stream(o.response(), 0, o.count()).filter(r -> r > bound)
                .count();
        // The 20 calls scheduled during the stall, and 2 that its backlog makes wait longer.
        assertEquals(22, above);
        assertEquals(stall + 100_000, Arrays.stream(o.response()).max().getAsLong());
        for (int i = 0; i < o.count(); i++) {
            assertTrue(o.response()[i] >= o.service()[i]);
        }
        // A closed loop on the same server counts the stall once.
        final SimulatedServer closed = new SimulatedServer(100_000, SECOND / 2, stall);
        assertEquals(1, Arrays.stream(closed.closedLoop(10_000)).filter(r -> r > bound).count());
    }

    @Test
    void aCallNeverAnsweredIsLostAndLeftOut() throws Exception {
        final SimulatedServer server = new SimulatedServer(50_000, SECOND * 100, 0);
        server.dropped = 12;
        final Outcome o = run(server, "poisson:2000", 5, 10, 100);
        assertEquals(99, o.count());
        final JsonObject h = o.header();
        assertEquals(100, h.get("calls").getAsLong());
        assertEquals(1, h.get("lost").getAsLong());
        assertEquals(5, h.get("seed").getAsLong());
        assertEquals("poisson", h.get("kind").getAsString());
        // The wait ended at its timeout: the wall time reaches past the last send by it.
        assertTrue(o.wallNs() >= SECOND, "wall " + o.wallNs());
    }

    @Test
    void aSendLaterThanOneGapIsLate() throws Exception {
        final SimulatedServer server = new SimulatedServer(10_000, SECOND * 100, 0);
        server.slowSend = 10;
        server.slowSendNs = 2_500_000; // 2.5 gaps of 1 ms
        final Outcome o = run(server, "constant:1000", 3, 0, 50);
        final JsonObject h = o.header();
        // Call 11 goes 1.5 gaps late, call 12 half a gap: only the first is late.
        assertEquals(1, h.get("late_sends").getAsLong());
        assertEquals(1_500_000, h.get("max_send_lag_ns").getAsLong());
        assertEquals(1_500_000, o.lag()[11]);
        assertEquals(500_000, o.lag()[12]);
        assertEquals(o.service()[11] + o.lag()[11], o.response()[11]);
    }

    @Test
    void aConstantScheduleHasNoSeedAndOneCallTheSchedulesRate() throws Exception {
        final SimulatedServer server = new SimulatedServer(10_000, SECOND * 100, 0);
        final JsonObject h = run(server, "constant:250", 3, 4, 1).header();
        assertTrue(!h.has("seed"));
        assertEquals(250.0, h.get("offered_per_s").getAsDouble());
    }

    @Test
    void aCallAnsweredTwiceOrNeverMadeIsAnError() {
        final SimulatedServer server = new SimulatedServer(10_000, SECOND * 100, 0);
        final OpenLoop loop = new OpenLoop(Load.parse("constant:100"), 0, 0, 3, server);
        assertEquals("", loop.error());
        loop.completed(1);
        loop.completed(1);
        assertEquals("completed(1) twice: each call is answered once", loop.error());
        loop.completed(7);
        assertEquals("completed(7): no such call (the open loop has 3, numbered from 0)",
                loop.error());
    }

    @Test
    void anUnsignedSeedIsWrittenAsOne() throws Exception {
        final SimulatedServer server = new SimulatedServer(10_000, SECOND * 100, 0);
        final Outcome o = run(server, "poisson:1000", -1, 0, 3);
        assertEquals("18446744073709551615", o.header().get("seed").toString());
    }
}
