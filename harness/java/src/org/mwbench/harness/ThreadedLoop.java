package org.mwbench.harness;

/**
 * One thread of {@link Measurement#runThreads} with several threads: its setup, warm-up,
 * batch probe and measured loop, each a step of the crew, with a barrier between them.
 */
final class ThreadedLoop {
    private final Measurement measurement;
    private final Lane lane;
    private final Crew crew;
    private Measurement.Call call; // built on this thread; null if its setup failed

    ThreadedLoop(Measurement measurement, Lane lane, Crew crew) {
        this.measurement = measurement;
        this.lane = lane;
        this.crew = crew;
    }

    void run(Measurement.ThreadSetup setup, int thread) {
        crew.step(() -> call = setup.setup(thread));
        crew.sync(null);
        final Measurement.Call measured = call == null ? null : measurement.slowed(call);
        crew.step(() -> {
            measurement.warmUp(measured, lane);
            lane.batch = measurement.options().batchAuto() ? measurement.chooseBatch(measured) : 1;
        });
        crew.sync(() -> {
            measurement.settleLanes();
            measurement.probe().start();
        });
        crew.step(() -> {
            final long batch = measurement.batch();
            final int wanted = measurement.perThread();
            lane.startNs = System.nanoTime();
            lane.measured = measurement.timedLoop(measured, lane, 0, Math.min(1, wanted), batch);
            if (lane.measured > 0) {
                measurement.announceMeasuring();
            }
            lane.measured = measurement.timedLoop(measured, lane, lane.measured, wanted, batch);
            lane.endNs = System.nanoTime();
        });
        crew.sync(() -> measurement.probe().stop());
        // No thread's teardown disturbs another's loop: all have ended here.
        if (call instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                crew.step(() -> {
                    throw e; // a failure unless an earlier one stopped the run
                });
            }
        }
    }
}
