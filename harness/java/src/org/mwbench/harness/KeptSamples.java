package org.mwbench.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The samples a run kept, series after series (thread 1 first), with the end time of each,
 * and the wall time from the first thread's loop start to the last thread's loop end.
 */
record KeptSamples(long[] durations, long[] ends, int count, long wallNs,
                   List<ResultHeader.Series> series) {
    /** The lanes' samples; packed into new arrays only with several threads. */
    static KeptSamples of(Lane[] lanes) {
        final List<ResultHeader.Series> series = new ArrayList<>();
        for (Lane lane : lanes) {
            series.add(new ResultHeader.Series(lane.measured, lane.endNs - lane.startNs));
        }
        if (lanes.length == 1) {
            final Lane lane = lanes[0];
            return new KeptSamples(lane.samples, lane.ends, lane.measured,
                    lane.endNs - lane.startNs, series);
        }
        int total = 0;
        for (Lane lane : lanes) {
            total += lane.measured;
        }
        final long[] durations = new long[total];
        final long[] ends = new long[total];
        long firstStart = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        int at = 0;
        for (Lane lane : lanes) {
            System.arraycopy(lane.samples, 0, durations, at, lane.measured);
            System.arraycopy(lane.ends, 0, ends, at, lane.measured);
            at += lane.measured;
            if (lane.endNs != 0) { // its loop ran
                firstStart = Math.min(firstStart, lane.startNs);
                lastEnd = Math.max(lastEnd, lane.endNs);
            }
        }
        final long wallNs = lastEnd > firstStart ? lastEnd - firstStart : 0;
        return new KeptSamples(durations, ends, total, wallNs, series);
    }
}
