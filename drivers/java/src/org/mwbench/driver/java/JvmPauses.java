package org.mwbench.driver.java;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mwbench.harness.Measurement;

/**
 * The JVM's stop-the-world pauses, placed on the samples' time line.
 *
 * <p>The launcher starts the JVM with -Xlog:safepoint=info and the decorator
 * timenanos (tn), os::javaTimeNanos, which is System.nanoTime's clock
 * (CLOCK_MONOTONIC), into a file that has no name (mwbench-driver-java.in).
 * Every stop-the-world pause is a safepoint, a collection of the serial
 * collector included, and the JVM logs each one as it ends:
 *
 * <pre>[51162752819865ns] Safepoint "GenCollectForAllocation", Time since last: 83291255 ns,
 *   Reaching safepoint: 3955 ns, Cleanup: 41713 ns, At safepoint: 1323888 ns, Total: 1369556 ns</pre>
 *
 * <p>so a pause is [end - Total, end], from the moment the VM asked every
 * thread to stop. After the measured loop the driver reads the log and gives
 * each sample the nanoseconds of pause inside it: a maximum that a collection
 * caused shows as such.
 */
final class JvmPauses {
    private static final Pattern SAFEPOINT = Pattern.compile(
            "^\\[(\\d+)ns\\] Safepoint \"([^\"]+)\".*, Total: (\\d+) ns");

    /** One pause: [start, end] in System.nanoTime, and the VM operation that stopped the world. */
    record Pause(long start, long end, String operation) {}

    private final List<Pause> pauses;

    private JvmPauses(List<Pause> pauses) {
        this.pauses = pauses;
    }

    /**
     * After the measured loop: the named series jvm_pause (the nanoseconds of
     * pause inside each sample, 0 for most) and middleware_config.jvm_pauses
     * (the pauses during the loop). Sample i ran from the end of sample i - 1
     * (the loop reads the clock once between them) to its own end; the first
     * sample of a thread's series, which has no such neighbour, is taken to
     * be as long as the one after it. Without the log (the JVM not started by
     * the launcher) it records why, and no series.
     */
    static void record(Measurement m, String log) {
        if (log == null) {
            m.recordConfig("jvm_pauses", Map.of("error",
                    "no safepoint log: the JVM was not started by mwbench-driver-java"));
            return;
        }
        JvmPauses pauses;
        try {
            pauses = read(Path.of(log));
        } catch (IOException e) {
            m.recordConfig("jvm_pauses", Map.of("error", "reading " + log + ": " + e));
            return;
        }
        int count = m.sampleCount();
        if (count == 0) {
            return;
        }
        IntToLongFunction start = i -> sampleStart(m, i, count);
        long[] series = m.namedSeries("jvm_pause", null);
        pauses.placeOn(start, m::sampleEndNanos, series, count);
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            first = Math.min(first, start.applyAsLong(i));
            last = Math.max(last, m.sampleEndNanos(i));
        }
        m.recordConfig("jvm_pauses", pauses.summary(first, last));
    }

    /** When sample i started: see record(). */
    private static long sampleStart(Measurement m, int i, int count) {
        long end = m.sampleEndNanos(i);
        if (i > 0 && m.sampleEndNanos(i - 1) < end) {
            return m.sampleEndNanos(i - 1);
        }
        if (i + 1 < count && m.sampleEndNanos(i + 1) > end) {
            return end - (m.sampleEndNanos(i + 1) - end);
        }
        return end; // a series of one sample: its length is unknown
    }

    /** The pauses logged so far in `log`, in the order they ended. */
    static JvmPauses read(Path log) throws IOException {
        List<Pause> pauses = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = SAFEPOINT.matcher(line);
            if (m.find()) {
                long end = Long.parseLong(m.group(1));
                pauses.add(new Pause(end - Long.parseLong(m.group(3)), end, m.group(2)));
            }
        }
        return new JvmPauses(pauses);
    }

    /**
     * Writes into out[i] the nanoseconds of pause inside sample i, which ran
     * from start.applyAsLong(i) to end.applyAsLong(i), for i below count.
     * Pauses never overlap (one safepoint at a time), so a binary search
     * finds the first that ends after a sample starts.
     */
    void placeOn(IntToLongFunction start, IntToLongFunction end, long[] out, int count) {
        for (int i = 0; i < count; i++) {
            long from = start.applyAsLong(i);
            long to = end.applyAsLong(i);
            long inside = 0;
            for (int p = firstEndingAfter(from); p < pauses.size(); p++) {
                Pause pause = pauses.get(p);
                if (pause.start() >= to) {
                    break;
                }
                inside += Math.min(to, pause.end()) - Math.max(from, pause.start());
            }
            out[i] = inside;
        }
    }

    /**
     * The pauses that overlap [from, to] (the measured loop): how many, their
     * total and longest duration, and how many of each VM operation.
     */
    JsonObject summary(long from, long to) {
        long count = 0;
        long total = 0;
        long max = 0;
        TreeMap<String, Integer> operations = new TreeMap<>();
        for (int p = firstEndingAfter(from); p < pauses.size(); p++) {
            Pause pause = pauses.get(p);
            if (pause.start() >= to) {
                break;
            }
            long duration = pause.end() - pause.start();
            count++;
            total += duration;
            max = Math.max(max, duration);
            operations.merge(pause.operation(), 1, Integer::sum);
        }
        JsonObject summary = new JsonObject();
        summary.addProperty("count", count);
        summary.addProperty("total_ns", total);
        summary.addProperty("max_ns", max);
        JsonObject byOperation = new JsonObject();
        operations.forEach(byOperation::addProperty);
        summary.add("operations", byOperation);
        return summary;
    }

    private int firstEndingAfter(long time) {
        int low = 0;
        int high = pauses.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (pauses.get(middle).end() <= time) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
