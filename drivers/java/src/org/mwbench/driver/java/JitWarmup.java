package org.mwbench.driver.java;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.mwbench.harness.Measurement.Call;

/**
 * Warm-up until the JIT has settled, before the harness's own --warmup calls.
 *
 * <p>JMH warms a benchmark up for a fixed number of iterations; here the
 * number is found by a rule. Each measuring thread makes rounds of
 * {@value #ROUND_CALLS} calls (fewer if a round reaches {@value #ROUND_MS} ms:
 * large payloads), each call timed, and stops after a round whose
 * median is within {@value #TOLERANCE_PERCENT}% of the round before it and
 * during which the JIT compiled nothing (the JVM's total compilation time,
 * in ms, did not grow): the rate has settled and nothing is being compiled
 * that could change it. At least {@value #MIN_ROUNDS} rounds (so that one
 * comparison is made), at most {@value #MAX_ROUNDS} (a machine too noisy to
 * settle still gets measured, and the header says it did not settle). Then
 * the harness makes its --warmup calls through the measured loop itself. The
 * rounds, each round's median and compilation time, are recorded in
 * middleware_config.warmup, per thread.
 */
final class JitWarmup {
    static final int ROUND_CALLS = 1000;
    static final int ROUND_MS = 100;
    static final int TOLERANCE_PERCENT = 5;
    static final int MIN_ROUNDS = 2;
    static final int MAX_ROUNDS = 50;

    private final JsonArray threads;
    private final BooleanSupplier stopRequested;

    JitWarmup(int threadCount, BooleanSupplier stopRequested) {
        this.threads = new JsonArray();
        for (int t = 0; t < threadCount; t++) {
            threads.add(new JsonObject());
        }
        this.stopRequested = stopRequested;
    }

    /** Warms `call` up on the calling thread, measuring thread `thread`. */
    void run(int thread, Call call) throws Exception {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long[] took = new long[ROUND_CALLS];
        JsonArray medians = new JsonArray();
        JsonArray compileMs = new JsonArray();
        long previous = -1;
        boolean settled = false;
        int rounds = 0;
        long calls = 0;
        while (rounds < MAX_ROUNDS && !settled && !stopRequested.getAsBoolean()) {
            long compiledBefore = jit.getTotalCompilationTime();
            long roundEnd = System.nanoTime() + ROUND_MS * 1_000_000L;
            int made = 0;
            while (made < ROUND_CALLS && (made == 0 || System.nanoTime() - roundEnd < 0)) {
                long start = System.nanoTime();
                call.call();
                took[made++] = System.nanoTime() - start;
            }
            long compiled = jit.getTotalCompilationTime() - compiledBefore;
            Arrays.sort(took, 0, made);
            long median = took[made / 2];
            rounds++;
            calls += made;
            medians.add(median);
            compileMs.add(compiled);
            settled = rounds >= MIN_ROUNDS && compiled == 0
                    && Math.abs(median - previous) * 100 <= TOLERANCE_PERCENT * previous;
            previous = median;
        }
        JsonObject entry = new JsonObject();
        entry.addProperty("rounds", rounds);
        entry.addProperty("calls", calls);
        entry.addProperty("settled", settled);
        entry.add("median_ns", medians);
        entry.add("compilation_ms", compileMs);
        synchronized (threads) {
            threads.set(thread, entry);
        }
    }

    /** middleware_config.warmup: the rule and what each thread did. */
    JsonObject toJson() {
        JsonObject warmup = new JsonObject();
        warmup.addProperty("rule", "rounds of " + ROUND_CALLS + " calls (or " + ROUND_MS
                + " ms) until a round's median is"
                + " within " + TOLERANCE_PERCENT + "% of the previous round's and the JIT compiled"
                + " nothing during it; at least " + MIN_ROUNDS + ", at most " + MAX_ROUNDS
                + " rounds; then --warmup calls in the measured loop");
        synchronized (threads) {
            warmup.add("threads", threads.deepCopy());
        }
        return warmup;
    }
}
