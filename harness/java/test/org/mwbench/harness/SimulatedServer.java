package org.mwbench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A simulated clock and, behind it, a simulated server that answers calls first in, first
 * out, each in {@code serviceNs}, and stops answering once, for {@code stallNs} from
 * {@code stallAtNs} (a collection, a stalled disk): an open loop's tests run on it without
 * a real clock, so that every figure they check is exact.
 */
final class SimulatedServer implements OpenLoop.Clock {
    static final long START_NS = 1_000_000_000L;

    private final long serviceNs;
    private final long stallAtNs;
    private final long stallNs;
    private final PriorityQueue<long[]> replies = new PriorityQueue<>(
            (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private long now = START_NS;
    private long freeAt = START_NS;
    private OpenLoop loop;
    /** The time each call arrived, in call order. */
    final List<Long> arrivals = new ArrayList<>();
    /** A call never answered, or -1. */
    long dropped = -1;
    /** A call whose send takes {@code slowSendNs} of the sender's time, or -1. */
    long slowSend = -1;
    long slowSendNs;
    /** How late each pause that no reply ends wakes, in turn (none: on time). */
    long[] lateness = {};
    /** What one turn of a spin costs; spins counted. */
    long spinNs = 1_000;
    long spins;
    private long pausesToTheEnd;

    /** {@code stallAtNs} from the start of the clock. */
    SimulatedServer(long serviceNs, long stallAtNs, long stallNs) {
        this.serviceNs = serviceNs;
        this.stallAtNs = START_NS + stallAtNs;
        this.stallNs = stallNs;
    }

    void answering(OpenLoop loop) {
        this.loop = loop;
    }

    /** The client's send of {@code call}: queued at the server, answered in turn. */
    void send(long call) {
        arrivals.add(now);
        long start = Math.max(now, freeAt);
        if (start >= stallAtNs && start < stallAtNs + stallNs) {
            start = stallAtNs + stallNs;
        }
        freeAt = start + serviceNs;
        if (call != dropped) {
            replies.add(new long[] {freeAt, call});
        }
        if (call == slowSend) {
            now += slowSendNs;
        }
    }

    @Override
    public long now() {
        return now;
    }

    /** Runs the replies due by {@code deadline}, one at a time, else moves to the deadline. */
    @Override
    public void pause(long deadline) {
        final long[] next = replies.peek();
        if (next != null && next[0] <= deadline) {
            replies.poll();
            now = Math.max(now, next[0]);
            loop.completed(next[1]);
            return;
        }
        final long late =
                lateness.length == 0 ? 0 : lateness[(int) (pausesToTheEnd++ % lateness.length)];
        now = Math.max(now, deadline + late);
    }

    /** A turn of a spin: its cost passes, the replies due meanwhile run at their times. */
    @Override
    public void spin() {
        spins++;
        final long end = now + spinNs;
        for (long[] next = replies.peek(); next != null && next[0] <= end; next = replies.peek()) {
            replies.poll();
            now = Math.max(now, next[0]);
            loop.completed(next[1]);
        }
        now = end;
    }

    /**
     * A closed loop on the same server: each call sent when the previous one returns;
     * returns each call's round trip.
     */
    long[] closedLoop(int calls) {
        final long[] roundTrips = new long[calls];
        for (int i = 0; i < calls; i++) {
            final long sentAt = now;
            long start = Math.max(now, freeAt);
            if (start >= stallAtNs && start < stallAtNs + stallNs) {
                start = stallAtNs + stallNs;
            }
            freeAt = start + serviceNs;
            now = freeAt;
            roundTrips[i] = now - sentAt;
        }
        return roundTrips;
    }
}
