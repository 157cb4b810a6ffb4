package org.mwbench.harness;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * The measured loop of a client (or collocated) process. A driver's measure() connects to
 * its middleware, then hands the one call it measures to {@link #run}, or, for --threads N,
 * a per-thread setup that returns each thread's call to {@link #runThreads}. The harness
 * owns everything around the call: warm-up, batch size, clock reads, the sample buffers
 * (preallocated long[] per thread), the wall time, CPU and resource use of the loop.
 *
 * <p>Per sample the loop reads one volatile stop flag, reads System.nanoTime() (which is
 * CLOCK_MONOTONIC on Linux) twice around {@code batch} calls and stores the duration and the
 * end time in two arrays: nothing is allocated, logged or locked.
 */
public final class Measurement {
    /** One call of the measured operation. */
    @FunctionalInterface
    public interface Call {
        void call() throws Exception;
    }

    /**
     * Runs on measuring thread {@code thread} (0 .. N-1), untimed, and returns that thread's
     * call, which owns its connection and buffers. A call that is also AutoCloseable is closed
     * on its thread once every thread's loop has ended.
     */
    @FunctionalInterface
    public interface ThreadSetup {
        Call setup(int thread) throws Exception;
    }

    private final DriverOptions options;
    private final double clockReadCostNs;
    private final int perThread;
    final Lane[] lanes;
    private volatile boolean stop;
    private String failure; // guarded by this; the first one only
    private final LoopProbe probe = new LoopProbe();
    private final JsonObject config = new JsonObject(); // guarded by this
    private final long injectedDelayNs;
    private final MeasuringFile measuring = MeasuringFile.fromEnvironment();
    private final List<NamedSeries> named = new ArrayList<>();
    private boolean ran;
    // What the run did, for the result file.
    private long batch = 1;
    private long warmupDone;
    private KeptSamples kept;
    private final OpenLoop open; // --load constant or poisson; null for a closed loop
    private boolean reported;

    /**
     * Allocates the sample buffers (--threads x --samples durations and end times) now, so
     * that the loop never allocates; DriverMain builds one, tests may too.
     */
    Measurement(DriverOptions options, double clockReadCostNs) {
        this.options = options;
        this.clockReadCostNs = clockReadCostNs;
        this.perThread = Math.toIntExact(options.samples());
        lanes = new Lane[options.threads()];
        for (int t = 0; t < lanes.length; t++) {
            lanes[t] = new Lane(perThread);
        }
        injectedDelayNs = InjectedDelay.fromEnvironment();
        // A seed not given is drawn: 63 bits, which a signed 64-bit reader also takes.
        final long seed = options.loadSeed() != null ? options.loadSeed()
                : new SecureRandom().nextLong() >>> 1;
        open = options.load().open() ? new OpenLoop(options.load(), seed, options.warmup(),
                options.samples(), OpenLoop.SYSTEM) : null;
    }

    public DriverOptions options() {
        return options;
    }

    /**
     * The endpoint the server published in --endpoint-file: waits up to --timeout seconds for
     * the file (the server renames a whole file into place). Throws IOException naming the
     * path on timeout, when the file is empty, or when a signal arrived while waiting.
     */
    public String readEndpoint() throws IOException, InterruptedException {
        return EndpointFile.read(Path.of(options.endpointFile()), options.timeoutSeconds(),
                () -> stop);
    }

    /**
     * Measures on the calling thread (--threads 1 only; IllegalStateException otherwise):
     * the warm-up (--warmup calls), the batch size (--batch, or auto: the smallest power of
     * two whose batch lasts at least 100 clock reads), then --samples samples of that many
     * calls. Returns early, keeping what was measured, after SIGTERM/SIGINT. What the call
     * throws ends the run and is rethrown; after a {@link #fail} the run ends before the next
     * sample and this throws with its message.
     */
    public void run(Call call) throws Exception {
        requireOneThread("the driver measures with Measurement.run(), on one thread; it must use"
                + " runThreads() or declare maxThreads 1");
        startRun();
        final Lane lane = lanes[0];
        final Call measured = slowed(call);
        warmUp(measured, lane);
        batch = options.batchAuto() ? chooseBatch(measured) : options.batch();
        probe.start();
        // The first sample on its own, so that it can be announced between two samples.
        lane.measured = timedLoop(measured, lane, 0, Math.min(1, perThread), batch);
        if (lane.measured > 0) {
            announceMeasuring();
        }
        lane.measured = timedLoop(measured, lane, lane.measured, perThread, batch);
        probe.stop();
        lane.startNs = probe.startNs();
        lane.endNs = probe.endNs();
        warmupDone = lane.warmupDone;
        finish();
    }

    /**
     * Measures on --threads threads: {@code setup(thread)} runs on each, untimed; then all
     * warm up together, each probes a batch size with --batch auto (all use the largest),
     * and all start their loops together, each filling its own buffers (one series per
     * thread). The first exception of any thread, in its setup or a call, stops all of them
     * and is rethrown here. With --threads 1 this is run(setup.setup(0)) on this thread.
     */
    public void runThreads(ThreadSetup setup) throws Exception {
        if (options.threads() == 1) {
            final Call call = setup.setup(0);
            try {
                run(call);
            } finally {
                if (call instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            }
            return;
        }
        startRun();
        final Crew crew = new Crew(options.threads(), this::requestStop);
        crew.run(thread -> new ThreadedLoop(this, lanes[thread], crew).run(setup, thread));
        finish();
    }

    /** One call of an open loop: starts call {@code call}, returns without its reply. */
    @FunctionalInterface
    public interface Send {
        void send(long call) throws Exception;
    }

    /**
     * The open loop of --load constant:RATE or poisson:RATE (--threads 1, --batch 1): sends
     * call 0, 1, 2, ... (--warmup calls, then --samples) at the schedule's intended start
     * times, on this thread, never waiting for a reply; the driver calls {@link #completed}
     * with the call's number from whichever thread receives its reply. Then waits up to
     * --timeout seconds for the replies outstanding. The sample of a call is its response
     * time from its intended start; the named series service_time (from the send) and
     * send_lag (from the intended start to the send) are declared here. Calls unanswered at
     * the end are lost: left out, and counted in the header's {@code load}.
     */
    public void runOpen(Send send) throws Exception {
        requireOneThread("an open loop sends from one thread");
        if (open == null) {
            throw new IllegalStateException("runOpen() without an open-loop --load");
        }
        open.measure(this, lanes[0], send);
    }

    /** An open loop's reply to call {@code call} has arrived; any thread, once per call. */
    public void completed(long call) {
        if (open != null) {
            open.completed(call);
        }
    }

    /** Whether --load is an open loop: measure() then calls {@link #runOpen}. */
    public boolean openLoop() {
        return open != null;
    }

    /**
     * Samples the application timed itself (a one-way latency): {@code collect} fills an
     * array of --warmup + --samples durations; the first --warmup are dropped. The header
     * says {@code "timed_by": "driver"}. --threads 1, --batch 1 or auto; no named series.
     */
    public void runReported(ReportedSamples collect) throws Exception {
        requireOneThread("samples a driver reports come from one application");
        ReportedRun.run(this, lanes[0], collect);
        reported = true;
    }

    /**
     * From any thread, inside the call: reports a wrong reply. The loops stop before their
     * next sample and run()/runThreads() throw with the first message given.
     */
    public void fail(String message) {
        synchronized (this) {
            if (failure == null) {
                failure = message == null || message.isEmpty() ? "call failed" : message;
            }
        }
        requestStop();
    }

    /**
     * Declares a named series and returns its values, one slot per sample this run may keep
     * (--samples x --threads), which the driver fills: value i belongs to sample i of the
     * result file (series after series, thread 1 first), typically after run() from
     * {@link #sampleEndNanos} (a JVM pause attributed to the sample it fell into). The first
     * {@link #sampleCount()} values are written, behind the samples, in the order declared.
     * {@code partOf} names a series declared earlier, or is null. Throws UsageException for a
     * bad or repeated name or an unknown {@code partOf}.
     */
    public synchronized long[] namedSeries(String name, String partOf) {
        return NamedSeries.declare(named, name, partOf, Math.multiplyExact(perThread,
                lanes.length)).values();
    }

    /**
     * Records how the middleware was configured (an ORB's properties), written to the result
     * header as {@code middleware_config.<key>}. {@code jsonValue} is a String, Number,
     * Boolean, Map, List or Gson JsonElement; a later call replaces a key.
     */
    public synchronized void recordConfig(String key, Object jsonValue) {
        config.add(key, Json.tree(jsonValue));
    }

    /** After run(): the samples kept (all threads), which the result file holds. */
    public int sampleCount() {
        requireRan("sampleCount()");
        return kept.count();
    }

    /**
     * After run(): System.nanoTime() at the end of sample {@code index} (0 .. sampleCount()-1,
     * in the file's order), to attribute events with a time of their own to samples.
     */
    public long sampleEndNanos(int index) {
        requireRan("sampleEndNanos()");
        if (index < 0 || index >= kept.count()) {
            throw new IndexOutOfBoundsException("sample " + index + " of " + kept.count());
        }
        return kept.ends()[index];
    }

    /** Whether SIGTERM/SIGINT or a {@link #fail} asked the loops to stop. */
    public boolean stopRequested() {
        return stop;
    }

    // The loop, and what the threaded loop shares with it.

    void requestStop() {
        stop = true;
    }

    Call slowed(Call call) {
        return InjectedDelay.slowed(call, injectedDelayNs);
    }

    /** Samples [from, to) into the lane's buffers; returns where it stopped. */
    int timedLoop(Call call, Lane lane, int from, int to, long calls) throws Exception {
        final long[] out = lane.samples;
        final long[] endTimes = lane.ends;
        int n = from;
        for (; n < to; n++) {
            if (stop) {
                break;
            }
            final long t0 = System.nanoTime();
            for (long k = 0; k < calls; k++) {
                call.call();
            }
            final long t1 = System.nanoTime();
            out[n] = t1 - t0;
            endTimes[n] = t1;
        }
        return n;
    }

    /**
     * The warm-up goes through the timed loop itself (its samples are overwritten later), so
     * that the JIT has compiled the very loop that measures.
     */
    void warmUp(Call call, Lane lane) throws Exception {
        long left = options.warmup();
        while (left > 0 && !stop) {
            final int wanted = (int) Math.min(left, Math.max(perThread, 1));
            final int done = timedLoop(call, lane, 0, wanted, 1);
            lane.warmupDone += done;
            left -= done;
        }
    }

    long chooseBatch(Call call) throws Exception {
        return AutoBatch.forCall(call, clockReadCostNs, () -> stop);
    }

    /** MWBENCH_MEASURING_FILE: created once, after a first sample was kept. */
    void announceMeasuring() {
        measuring.announce();
    }

    LoopProbe probe() {
        return probe;
    }

    /** The barrier's: one batch size for all threads, the largest probed. */
    void settleLanes() {
        batch = options.batchAuto() ? 1 : options.batch();
        warmupDone = options.warmup();
        for (Lane lane : lanes) {
            batch = Math.max(batch, lane.batch);
            warmupDone = Math.min(warmupDone, lane.warmupDone);
        }
    }

    long batch() {
        return batch;
    }

    int perThread() {
        return perThread;
    }

    // What the result file needs (DriverMain).

    boolean ran() {
        return ran;
    }

    long injectedDelayNs() {
        return injectedDelayNs;
    }

    long samplesWanted() {
        return (long) perThread * lanes.length;
    }

    KeptSamples kept() {
        return kept;
    }

    /** The result header's view of the run. */
    synchronized ResultHeader.Run record() {
        return new ResultHeader.Run(warmupDone, batch, kept.count(), kept.wallNs(), probe,
                config.deepCopy(), injectedDelayNs, kept.series(), named(),
                open == null ? null : open.header(), reported);
    }

    synchronized List<NamedSeries> named() {
        return List.copyOf(named);
    }

    void startRun() {
        if (ran) {
            throw new IllegalStateException("Measurement.run() called twice");
        }
        ran = true;
    }

    private void requireOneThread(String why) {
        if (options.threads() != 1) {
            throw new IllegalStateException("--threads " + options.threads() + ": " + why);
        }
    }

    private void requireRan(String what) {
        if (kept == null) {
            throw new IllegalStateException(what + " is known once run() has returned");
        }
    }

    /** Keeps what the loops measured, then fails if a call reported a failure. */
    private void finish() {
        kept = KeptSamples.of(lanes);
        throwFailure();
    }

    /** As finish(), for a loop that counted its warm-up itself. */
    void finish(long warmupCalls) {
        warmupDone = warmupCalls;
        finish();
    }

    boolean namedDeclared() {
        return !named.isEmpty();
    }

    private synchronized void throwFailure() {
        if (failure != null) {
            throw new CallFailure(failure);
        }
    }
}
