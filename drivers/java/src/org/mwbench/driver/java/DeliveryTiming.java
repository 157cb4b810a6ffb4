package org.mwbench.driver.java;

import org.mwbench.harness.Measurement;
import org.mwbench.harness.Measurement.Call;

/**
 * delivery=1: around each measured call, the client's clock read just before the call and,
 * after it, the servant's entry from the delivery board: the named series {@code delivery},
 * the time from the send to the servant's code, one value per sample (--batch 1, one
 * thread). The call's own sample is the harness's, around this. A call the servant did not
 * stamp (a server without delivery=1) fails the run.
 */
final class DeliveryTiming implements Call {
    private final Call call;
    private final DeliveryBoard board;
    private final Measurement m;
    private final long[] series;
    private final long warmup;
    private long made;

    DeliveryTiming(Call call, DeliveryBoard board, Measurement m) {
        this.call = call;
        this.board = board;
        this.m = m;
        this.series = m.namedSeries("delivery", null);
        this.warmup = m.options().warmup();
    }

    /** After the JIT's warm-up: the next call is the harness's first (--warmup, then samples). */
    void restart() {
        made = 0;
    }

    @Override
    public void call() throws Exception {
        final int before = board.entries();
        final long sent = System.nanoTime();
        call.call();
        final int after = board.entries(); // then the time of the entry it shows
        final long delivery = board.entryNs() - sent;
        if (after == before) {
            m.fail("delivery=1: the servant stamped no entry for the call (give the server"
                    + " --option delivery=1 too)");
        } else if (delivery < 0) {
            m.fail("delivery=1: the servant's entry precedes the send by " + -delivery
                    + " ns: the two processes do not share one monotonic clock");
        }
        final long sample = made++ - warmup;
        if (sample >= 0 && sample < series.length) {
            series[(int) sample] = Math.max(0, delivery);
        }
    }
}
