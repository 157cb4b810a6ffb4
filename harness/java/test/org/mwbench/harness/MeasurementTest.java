package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measured loops: counts of calls and samples, threads, failures, stops, named series. */
class MeasurementTest {
    private static final double READ_COST_NS = 20;

    @Test
    void warmUpThenSamplesOfTheBatchSize() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "50", "--warmup", "7",
                "--batch", "3"), READ_COST_NS);
        final AtomicLong calls = new AtomicLong();
        m.run(calls::incrementAndGet);
        assertEquals(7 + 50 * 3, calls.get());
        assertEquals(50, m.sampleCount());
        final ResultHeader.Run run = m.record();
        assertEquals(7, run.warmup());
        assertEquals(3, run.batchSize());
        assertEquals(1, run.series().size());
        for (int i = 1; i < 50; i++) {
            assertTrue(m.sampleEndNanos(i) >= m.sampleEndNanos(i - 1));
        }
        assertTrue(run.measuredWallNs() >= Arrays.stream(m.kept().durations(), 0, 50).sum());
    }

    @Test
    void theLoopAllocatesNothingPerSample() throws Exception {
        final long few = allocatedByRun("1000");
        final long many = allocatedByRun("200000");
        // One object per sample would be at least 16 bytes x 199000 more.
        assertTrue(many - few < 64 * 1024, few + " bytes for 1000 samples, " + many + " for 200000");
    }

    /** Bytes the calling thread allocated in run(), buffers excluded (made before). */
    private static long allocatedByRun(String samples) throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", samples,
                "--warmup", "0"), READ_COST_NS);
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        m.run(() -> { });
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void autoBatchPicksAPowerOfTwo() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "5", "--warmup", "0",
                "--batch", "auto"), READ_COST_NS);
        m.run(() -> { });
        final long batch = m.record().batchSize();
        assertEquals(0, batch & (batch - 1), "batch " + batch);
    }

    @Test
    void eachThreadKeepsItsSamplesAndAllUseOneBatch() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "40", "--warmup", "5",
                "--threads", "3", "--batch", "2"), READ_COST_NS);
        final AtomicLongArray calls = new AtomicLongArray(3);
        m.runThreads(thread -> () -> calls.incrementAndGet(thread));
        for (int t = 0; t < 3; t++) {
            assertEquals(5 + 40 * 2, calls.get(t));
        }
        final ResultHeader.Run run = m.record();
        assertEquals(120, m.sampleCount());
        assertEquals(3, run.series().size());
        assertEquals(40, run.series().get(2).count());
        assertEquals(2, run.batchSize());
    }

    @Test
    void setupRunsOnTheMeasuringThreadAndClosesThere() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "3", "--threads", "2"),
                READ_COST_NS);
        final AtomicInteger closedOnOwnThread = new AtomicInteger();
        m.runThreads(thread -> {
            final Thread owner = Thread.currentThread();
            return new ClosingCall(() -> {
                if (Thread.currentThread() == owner) {
                    closedOnOwnThread.incrementAndGet();
                }
            });
        });
        assertEquals(2, closedOnOwnThread.get());
    }

    @Test
    void aFailureOfOneThreadStopsEveryThread() {
        final Measurement m = new Measurement(Cells.collocated("--samples", "1000",
                "--warmup", "0", "--threads", "2"), READ_COST_NS);
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch failed = new CountDownLatch(1);
        // Thread 1 fails while thread 0 is inside its first call.
        final CallFailure e = assertThrows(CallFailure.class, () -> m.runThreads(thread -> () -> {
            if (thread == 1) {
                inside.await();
                m.fail("wrong reply");
                failed.countDown();
            } else {
                inside.countDown();
                failed.await();
            }
        }));
        assertEquals("wrong reply", e.getMessage());
        assertEquals(2, m.sampleCount()); // the one each thread was taking
    }

    @Test
    void anExceptionInASetupIsTheRunsError() {
        final Measurement m = new Measurement(Cells.collocated("--threads", "3"), READ_COST_NS);
        final IOException refused = new IOException("connection refused");
        final IOException e = assertThrows(IOException.class, () -> m.runThreads(thread -> {
            if (thread == 2) {
                throw refused;
            }
            return () -> { };
        }));
        assertSame(refused, e);
    }

    @Test
    void aStopKeepsWhatWasMeasured() throws Exception {
        final Measurement m = new Measurement(
                Cells.collocated("--samples", "1000", "--warmup", "0"), READ_COST_NS);
        final AtomicLong calls = new AtomicLong();
        m.run(() -> {
            if (calls.incrementAndGet() == 10) {
                m.requestStop();
            }
        });
        assertEquals(10, m.sampleCount());
    }

    @Test
    void runRefusesSeveralThreads() {
        final Measurement m = new Measurement(Cells.collocated("--threads", "2"), READ_COST_NS);
        assertThrows(IllegalStateException.class, () -> m.run(() -> { }));
    }

    @Test
    void namedSeriesHaveOneSlotPerSampleAndAreChecked() throws Exception {
        final Measurement m = new Measurement(Cells.collocated("--samples", "4"), READ_COST_NS);
        final long[] total = m.namedSeries("total", null);
        assertEquals(4, total.length);
        m.namedSeries("part", "total");
        assertThrows(UsageException.class, () -> m.namedSeries("total", null));
        assertThrows(UsageException.class, () -> m.namedSeries("Bad-name", null));
        assertThrows(UsageException.class, () -> m.namedSeries("orphan", "missing"));
        m.run(() -> { });
        assertEquals(2, m.record().named().size());
        assertEquals("total", m.record().named().get(1).partOf());
        assertNull(m.record().named().get(0).partOf());
    }

    @Test
    void theEndpointIsWaitedForAndAStopEndsTheWait(@TempDir Path dir) throws Exception {
        final Path file = dir.resolve("endpoint");
        EndpointFile.publish(file, "corbaloc:iiop:127.0.0.1:4000/x");
        assertEquals("corbaloc:iiop:127.0.0.1:4000/x", EndpointFile.read(file, 1, () -> false));
        final IOException stopped = assertThrows(IOException.class,
                () -> EndpointFile.read(dir.resolve("absent"), 60, () -> true));
        assertTrue(stopped.getMessage().startsWith("stopped while waiting for endpoint file"));
        assertTrue(Files.notExists(Path.of(file + ".tmp")));
    }

    /** A call that is AutoCloseable, as a connection's may be. */
    private record ClosingCall(Runnable onClose) implements Measurement.Call, AutoCloseable {
        @Override
        public void call() {
        }

        @Override
        public void close() {
            onClose.run();
        }
    }
}
