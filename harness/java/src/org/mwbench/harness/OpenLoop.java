package org.mwbench.harness;

import com.google.gson.JsonObject;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The open loop of --load constant:RATE or poisson:RATE (docs/driver-contract-open-loop.md):
 * calls are sent at intended start times drawn before the loop, never waiting for a reply;
 * each call's reply is recorded by {@link #completed} from whichever thread receives it.
 * The sample of a call is its response time from its intended start (free of coordinated
 * omission: a stall delays every call scheduled during it, and each of them counts it);
 * its service time runs from its actual send. Written over a {@link Clock}, so that the
 * tests drive the schedule and the bookkeeping with a simulated clock and server.
 */
final class OpenLoop {
    /** Time and waiting, in nanoseconds of one monotonic clock. */
    interface Clock {
        long now();

        /** Returns at {@code deadline} at the latest, earlier if woken (or spuriously). */
        void pause(long deadline);

        /** One turn of a wait without sleep: gives the CPU to any thread that wants it. */
        void spin();
    }

    /**
     * System.nanoTime (CLOCK_MONOTONIC), LockSupport.parkNanos, and a spin that yields
     * (Thread.onSpinWait, then Thread.yield: on a shared CPU a sender that spun without
     * yielding would starve the reply thread and the server). A park wakes up late (the
     * kernel's timer slack, a virtual machine's timer), which the spin margin makes up for.
     */
    static final Clock SYSTEM = new Clock() {
        @Override
        public long now() {
            return System.nanoTime();
        }

        @Override
        public void pause(long deadline) {
            final long left = deadline - System.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(left);
            }
        }

        @Override
        public void spin() {
            Thread.onSpinWait();
            Thread.yield();
        }
    };

    private final Load load;
    private final long seed;
    private final int warmup;
    private final Clock clock;
    private final SpinMargin spinMargin;
    // One entry per call (warm-up, then measured), allocated before the loop.
    private final long[] intended; // offsets from the start until run() adds the start
    private final long[] sent;
    private final long[] done; // 0: no reply yet
    private final AtomicInteger answered = new AtomicInteger();
    private volatile int awaited;
    private volatile Thread sender;
    private int sentCount;
    private long waitEndNs;
    // completed()'s misuse, the first of each (call + 1; 0 for none): the run fails with it.
    private final AtomicLong unknownCall = new AtomicLong();
    private final AtomicLong twiceCall = new AtomicLong();
    private Counts counts; // tally()'s

    OpenLoop(Load load, long seed, long warmup, long samples, Clock clock) {
        if (!load.open()) {
            throw new IllegalArgumentException("an open loop needs --load constant or poisson");
        }
        this.load = load;
        this.seed = seed;
        this.warmup = Math.toIntExact(warmup);
        this.clock = clock;
        this.spinMargin = new SpinMargin(load.meanGapNs());
        final int calls = Math.addExact(this.warmup, Math.toIntExact(samples));
        intended = new long[calls];
        sent = new long[calls];
        done = new long[calls];
        schedule(load, seed, intended);
        awaited = calls;
    }

    /**
     * Offsets of the intended start times from the first: constant, i x 1/RATE (rounded to
     * the nanosecond, no drift); poisson, sums of exponential gaps of mean 1/RATE drawn from
     * a generator seeded with {@code seed} (the same seed, the same schedule).
     */
    static void schedule(Load load, long seed, long[] offsets) {
        final double gap = load.meanGapNs();
        if (load.kind() == Load.Kind.CONSTANT) {
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = Math.round(i * gap);
            }
            return;
        }
        final SplittableRandom random = new SplittableRandom(seed);
        double at = 0;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = Math.round(at);
            at += -Math.log(1 - random.nextDouble()) * gap; // nextDouble() < 1: finite
        }
    }

    /**
     * Sends every call at its intended time (or, late, at once; parked until the spin margin
     * before it, then spinning, the margin calibrated on the warm-up), then waits for the replies
     * outstanding, woken by the last one, until {@code timeoutNs} pass without any reply.
     * Stops sending when {@code stop} says so; {@code onFirstMeasured} runs once the first
     * measured call is sent. What send() throws ends the loop and is rethrown.
     */
    void run(Measurement.Send send, BooleanSupplier stop, Runnable onFirstMeasured, long timeoutNs)
            throws Exception {
        sender = Thread.currentThread();
        final long start = clock.now();
        for (int i = 0; i < intended.length; i++) {
            intended[i] += start;
        }
        int call = 0;
        for (; call < intended.length && !stop.getAsBoolean(); call++) {
            if (call == warmup) {
                spinMargin.settle();
            }
            sent[call] = waitUntil(intended[call]);
            send.send(call);
            if (call == warmup) {
                onFirstMeasured.run();
            }
        }
        spinMargin.settle();
        sentCount = call;
        awaited = call;
        long deadline = clock.now() + timeoutNs;
        int seen = answered.get();
        while (answered.get() < call && !stop.getAsBoolean()) {
            clock.pause(deadline);
            final long now = clock.now();
            if (now - deadline >= 0) {
                // A whole --timeout without any reply: the calls still out are lost.
                if (answered.get() == seen) {
                    break;
                }
                seen = answered.get();
                deadline = now + timeoutNs;
            }
        }
        waitEndNs = clock.now();
    }

    /**
     * Waits until {@code due}: parks until the spin margin before it (all the way while the
     * margin calibrates, recording how late each park woke), then spins. Returns the time.
     */
    private long waitUntil(long due) {
        long now = clock.now();
        while (now - due < 0) {
            final long margin = spinMargin.marginNs();
            if (due - now > margin) {
                final long until = due - margin;
                clock.pause(until);
                now = clock.now();
                // A park that ended early (woken, or spuriously) tells nothing of the timer.
                if (now - until >= 0) {
                    spinMargin.recordLateness(now - until);
                }
            } else {
                clock.spin();
                now = clock.now();
            }
        }
        return now;
    }

    /** Measurement.runOpen(): the samples into {@code lane}, the named series declared. */
    void measure(Measurement m, Lane lane, Measurement.Send send) throws Exception {
        final long[] service = m.namedSeries("service_time", null);
        final long[] sendLag = m.namedSeries("send_lag", null);
        m.startRun();
        m.probe().start();
        run(send, m::stopRequested, m::announceMeasuring,
                Math.round(m.options().timeoutSeconds() * 1e9));
        m.probe().stop();
        lane.measured = tally(lane.samples, service, sendLag, lane.ends);
        lane.startNs = firstIntendedNs();
        lane.endNs = lane.startNs + measuredWallNs();
        if (!error().isEmpty()) {
            m.fail(error());
        }
        m.finish(warmupSent());
    }

    /**
     * The reply to {@code call} has arrived; any thread, each call once. A call that does not
     * exist or comes twice is remembered for {@link #error}, and otherwise ignored.
     */
    void completed(long call) {
        if (call < 0 || call >= done.length) {
            unknownCall.compareAndSet(0, call + 1);
            return;
        }
        if (done[(int) call] != 0) {
            twiceCall.compareAndSet(0, call + 1);
            return;
        }
        done[(int) call] = clock.now();
        if (answered.incrementAndGet() >= awaited) {
            LockSupport.unpark(sender);
        }
    }

    /** What completed() was given wrongly, as the C++ harness says it; empty if nothing. */
    String error() {
        if (unknownCall.get() != 0) {
            return "completed(" + (unknownCall.get() - 1) + "): no such call (the open loop has "
                    + done.length + ", numbered from 0)";
        }
        if (twiceCall.get() != 0) {
            return "completed(" + (twiceCall.get() - 1) + ") twice: each call is answered once";
        }
        return "";
    }

    /** Warm-up calls sent. */
    long warmupSent() {
        return Math.min(sentCount, warmup);
    }

    /**
     * Once, after run(): writes, for the measured calls answered in call order, the response
     * time from the intended start, the service time from the send, the send lag and the
     * reply's time; returns how many. Replies later than this are not counted anywhere.
     */
    int tally(long[] response, long[] service, long[] sendLag, long[] doneAt) {
        final long threshold = lateThresholdNs();
        final long lastSent = sentCount > 0 ? sent[sentCount - 1] : 0;
        long outstanding = 0;
        long late = 0;
        long maxLag = 0;
        long lastDone = Long.MIN_VALUE;
        int n = 0;
        for (int i = warmup; i < sentCount; i++) {
            final long lag = sent[i] - intended[i];
            late += lag > threshold ? 1 : 0;
            maxLag = Math.max(maxLag, lag);
            final long reply = done[i]; // read once: a late reply may be arriving
            // Unanswered when the last call went out.
            outstanding += reply == 0 || reply - lastSent > 0 ? 1 : 0;
            if (reply != 0) {
                response[n] = reply - intended[i];
                service[n] = reply - sent[i];
                sendLag[n] = lag;
                doneAt[n] = reply;
                lastDone = Math.max(lastDone, reply);
                n++;
            }
        }
        final long calls = Math.max(0, sentCount - warmup);
        counts = new Counts(n, calls - n, late, maxLag, lastDone, outstanding);
        return n;
    }

    /** The first measured call's intended start, or the last call's if none was measured. */
    long firstIntendedNs() {
        return intended[Math.min(warmup, Math.max(sentCount - 1, 0))];
    }

    /** From the first measured intended start to the last reply, or the wait's end if lost. */
    long measuredWallNs() {
        final long end = counts.lost() > 0 ? Math.max(waitEndNs, counts.lastDone())
                : counts.lastDone();
        return Math.max(0, end - firstIntendedNs());
    }

    /** After tally(): the result header's {@code load} object. */
    JsonObject header() {
        final Counts c = counts;
        final long calls = Math.max(0, sentCount - warmup);
        final long first = firstIntendedNs();
        final long offeredSpan = calls == 0 ? 0 : intended[sentCount - 1] - first;
        final long achievedSpan = c.answered() == 0 ? 0 : c.lastDone() - first;
        final JsonObject out = new JsonObject();
        out.addProperty("kind", load.kind().text());
        out.addProperty("rate_per_s", load.ratePerS());
        if (load.kind() == Load.Kind.POISSON) {
            out.addProperty("seed", new BigInteger(Long.toUnsignedString(seed)));
        }
        out.addProperty("calls", calls);
        // One call spans no time: its rate is the schedule's.
        out.addProperty("offered_per_s",
                offeredSpan > 0 ? calls * 1e9 / offeredSpan : load.ratePerS());
        out.addProperty("achieved_per_s",
                achievedSpan > 0 ? c.answered() * 1e9 / achievedSpan : 0.0);
        out.addProperty("late_sends", c.late());
        out.addProperty("late_threshold_ns", lateThresholdNs());
        out.addProperty("max_send_lag_ns", c.maxLag());
        out.addProperty("outstanding_at_end", c.outstandingAtEnd());
        out.addProperty("lost", c.lost());
        out.addProperty("spin_margin_ns", spinMargin.marginNs());
        out.addProperty("calibration_sleeps", spinMargin.sleeps());
        out.addProperty("calibration_lateness_p90_ns", spinMargin.latenessPercentileNs());
        return out;
    }

    /** A send later than one mean gap after its intended time is late. */
    long lateThresholdNs() {
        return Math.round(load.meanGapNs());
    }

    private record Counts(long answered, long lost, long late, long maxLag, long lastDone,
                          long outstandingAtEnd) {
    }
}
