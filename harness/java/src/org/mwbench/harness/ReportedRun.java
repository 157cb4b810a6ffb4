package org.mwbench.harness;

/** {@link Measurement#runReported}: samples the application timed itself. */
final class ReportedRun {
    private ReportedRun() {
    }

    static void run(Measurement m, Lane lane, ReportedSamples collect) throws Exception {
        final DriverOptions options = m.options();
        if (options.batch() != null && options.batch() != 1) {
            throw new UsageException("--batch " + options.batch()
                    + ": each sample the application timed is one; use --batch 1");
        }
        if (m.namedDeclared()) {
            throw new IllegalStateException(
                    "named series are measured by run() only, not by runReported()");
        }
        m.startRun();
        // Allocated before the loop: the application fills it as it goes.
        final long[] values = new long[Math.addExact(Math.toIntExact(options.warmup()),
                m.perThread())];
        final LoopProbe probe = m.probe();
        probe.start();
        m.announceMeasuring();
        final int recorded = Math.max(0, Math.min(collect.collect(values), values.length));
        probe.stop();
        final int dropped = (int) Math.min(recorded, options.warmup());
        lane.measured = recorded - dropped;
        System.arraycopy(values, dropped, lane.samples, 0, lane.measured);
        lane.startNs = probe.startNs();
        lane.endNs = probe.endNs();
        m.finish(dropped);
    }
}
