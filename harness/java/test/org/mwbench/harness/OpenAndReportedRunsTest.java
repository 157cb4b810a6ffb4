package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** Measurement.runOpen() on the real clock, with a reply thread, and runReported(). */
class OpenAndReportedRunsTest {
    private static final double READ_COST_NS = 20;

    @Test
    void anOpenLoopKeepsEachAnsweredCallWithItsSeries() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "200", "--warmup",
                "20", "--load", "poisson:5000", "--load-seed", "9"), READ_COST_NS);
        assertTrue(m.openLoop());
        // The replies come from a thread of their own, in order, as a middleware's would.
        final BlockingQueue<Long> inFlight = new ArrayBlockingQueue<>(220);
        final Thread replier = new Thread(() -> {
            try {
                for (int i = 0; i < 220; i++) {
                    m.completed(inFlight.take());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        replier.start();
        m.runOpen(inFlight::add);
        replier.join();
        assertEquals(200, m.sampleCount());
        final ResultHeader.Run run = m.record();
        assertEquals(20, run.warmup());
        assertEquals(1, run.batchSize());
        assertEquals(2, run.named().size());
        assertEquals("service_time", run.named().get(0).name());
        assertEquals("send_lag", run.named().get(1).name());
        final long[] response = m.kept().durations();
        for (int i = 0; i < 200; i++) {
            assertEquals(response[i], run.named().get(0).values()[i]
                    + run.named().get(1).values()[i], "call " + i);
        }
        final JsonObject load = run.load();
        assertEquals("poisson", load.get("kind").getAsString());
        assertEquals(9, load.get("seed").getAsLong());
        assertEquals(200, load.get("calls").getAsLong());
        assertEquals(0, load.get("lost").getAsLong());
        assertFalse(run.reported());
    }

    @Test
    void aClosedLoopHasNoLoadObject() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "3", "--warmup",
                "0", "--load", "closed"), READ_COST_NS);
        assertFalse(m.openLoop());
        m.run(() -> { });
        assertNull(m.record().load());
        assertThrows(IllegalStateException.class, () -> new Measurement(Cells.collocated(
                "--samples", "3"), READ_COST_NS).runOpen(call -> { }));
    }

    @Test
    void reportedSamplesDropTheWarmUpAndSayWhoTimedThem() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "4", "--warmup",
                "2"), READ_COST_NS);
        m.runReported(into -> {
            for (int i = 0; i < into.length; i++) {
                into[i] = 100 + i;
            }
            return into.length;
        });
        assertEquals(4, m.sampleCount());
        assertEquals(102, m.kept().durations()[0]);
        assertEquals(105, m.kept().durations()[3]);
        assertTrue(m.record().reported());
        assertEquals(2, m.record().warmup());
        assertEquals("driver", ResultHeader.make(Cells.description(), m.options(),
                ClockInfo.probe(), m.record()).get("timed_by").getAsString());
    }

    @Test
    void reportedSamplesRefuseABatch() {
        final Measurement m = new Measurement(Cells.collocated("--samples", "4", "--batch",
                "2"), READ_COST_NS);
        assertThrows(UsageException.class, () -> m.runReported(into -> 0));
    }
}
