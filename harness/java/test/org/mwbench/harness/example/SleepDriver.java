package org.mwbench.harness.example;

import java.util.List;
import org.mwbench.harness.Description;
import org.mwbench.harness.Driver;
import org.mwbench.harness.DriverMain;
import org.mwbench.harness.DriverOptions;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.ServerContext;

/**
 * The smallest driver on the Java harness, for the harness's own end-to-end tests: its call
 * is Thread.sleep(0) (a "sleep 0" loop), its server publishes an endpoint that names its
 * process and serves until SIGTERM. With --option check=wrong every call reports a wrong
 * reply, with --option gc=1 it records a named series "gc_pause" after the loop.
 */
public final class SleepDriver implements Driver {
    public static void main(String[] args) {
        DriverMain.main(args, new SleepDriver());
    }

    @Override
    public Description describe() {
        final Description d = new Description("jsleep", "Thread.sleep", "0");
        d.operations.put("roundtrip", false);
        d.modes.put("remote", List.of("none"));
        d.modes.put("collocated", List.of("inproc"));
        d.options.put("check", "right (default) or wrong: wrong fails every call");
        d.options.put("named", "0 (default) or 1: records the named series 'end_ms'");
        d.optionValues.put("check", List.of("right", "wrong"));
        d.maxServants = 1;
        return d;
    }

    @Override
    public void serve(DriverOptions options, ServerContext context) throws Exception {
        context.recordConfig("endpoint", "sleep:" + ProcessHandle.current().pid());
        context.publishEndpoint("sleep:" + ProcessHandle.current().pid());
        context.awaitStop();
    }

    @Override
    public void measure(DriverOptions options, Measurement measurement) throws Exception {
        if (options.role().mode().equals("remote")) {
            measurement.recordConfig("endpoint", measurement.readEndpoint());
        }
        final boolean wrong = options.option("check", "right").equals("wrong");
        final long[] ends = options.optionFlag("named", false)
                ? measurement.namedSeries("end_ms", null) : null;
        measurement.runThreads(thread -> () -> {
            Thread.sleep(0);
            if (wrong) {
                measurement.fail("wrong reply on thread " + thread);
            }
        });
        if (ends != null) {
            for (int i = 0; i < measurement.sampleCount(); i++) {
                ends[i] = measurement.sampleEndNanos(i) / 1_000_000;
            }
        }
    }
}
