package org.mwbench.driver.java;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pauses from a safepoint log, placed on samples that run back to back. */
class JvmPausesTest {
    // Samples of 100 ns each: sample i runs from 1000 + 100 i to 1100 + 100 i.
    private static final long[] STARTS = {1000, 1100, 1200, 1300};

    private static JvmPauses pauses(Path folder, String... lines) throws Exception {
        Path log = folder.resolve("safepoint.log");
        Files.write(log, java.util.List.of(lines));
        return JvmPauses.read(log);
    }

    private static String safepoint(long end, String operation, long total) {
        return "[" + end + "ns] Safepoint \"" + operation + "\", Time since last: 5 ns,"
                + " Reaching safepoint: 1 ns, Cleanup: 1 ns, At safepoint: 3 ns, Total: " + total
                + " ns";
    }

    @Test
    void aPauseLandsOnTheSamplesItOverlaps(@TempDir Path folder) throws Exception {
        JvmPauses read = pauses(folder,
                "[900ns] not a safepoint line",
                safepoint(1150, "GenCollectForAllocation", 30), // inside sample 1
                safepoint(1350, "Cleanup", 100)); // the end of sample 2, the start of sample 3
        long[] out = new long[STARTS.length];
        read.placeOn(i -> STARTS[i], i -> STARTS[i] + 100, out, out.length);
        assertArrayEquals(new long[] {0, 30, 50, 50}, out);
    }

    @Test
    void theSummaryCountsThePausesDuringTheLoop(@TempDir Path folder) throws Exception {
        JvmPauses read = pauses(folder,
                safepoint(500, "GenCollectForAllocation", 100), // before the loop
                safepoint(1150, "GenCollectForAllocation", 30),
                safepoint(1350, "Cleanup", 100),
                safepoint(3000, "Cleanup", 10)); // after it
        JsonObject summary = read.summary(1000, 1400);
        assertEquals(2, summary.get("count").getAsLong());
        assertEquals(130, summary.get("total_ns").getAsLong());
        assertEquals(100, summary.get("max_ns").getAsLong());
        assertEquals(1, summary.getAsJsonObject("operations").get("Cleanup").getAsInt());
    }
}
