package org.mwbench.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The main of every Java driver: reads like the contract. Parse, place the process, run
 * the role, write the result file, exit with the contract's status: 0 success, 2 bad
 * arguments, 3 for --option fault=exit, 1 any other failure, each error one line on
 * standard error starting with {@code mwbench-driver-<name>: error:}.
 */
public final class DriverMain {
    private DriverMain() {
    }

    /** Runs {@code driver} with the command line {@code args}; never returns. */
    public static void main(String[] args, Driver driver) {
        System.exit(run(args, driver));
    }

    /** The exit status of running {@code driver}; main() without the exit, for tests. */
    static int run(String[] args, Driver driver) {
        String prog = "mwbench-driver";
        try {
            final Description d = driver.describe();
            prog += "-" + d.driver;
            final Arguments arguments = Arguments.parse(args, d);
            if (arguments.help()) {
                System.out.print(prog + ": the " + d.middleware + " driver of mwbench; "
                        + Arguments.USAGE);
                return 0;
            }
            if (arguments.describe()) {
                System.out.println(Json.compact(d.toJson()));
                return 0;
            }
            final DriverOptions o = arguments.options();
            // Before the driver starts any thread, so that every thread inherits the CPU.
            if (o.cpu() != null) {
                Placement.pinProcess(o.cpu());
            }
            if (o.priority() > 0) {
                Placement.setFifoPriority(o.priority());
            }
            final ClockInfo clock = ClockInfo.probe();
            return o.role() == Role.SERVER ? serve(driver, d, o, prog, clock)
                    : measure(driver, d, o, prog, clock);
        } catch (UsageException e) {
            System.err.println(prog + ": error: " + e.getMessage());
            return 2;
        } catch (OutOfMemoryError e) {
            System.err.println(prog + ": error: out of memory (" + e.getMessage() + ")");
            return 1;
        } catch (Throwable e) {
            System.err.println(prog + ": error: " + describe(e));
            return 1;
        }
    }

    private static int serve(Driver driver, Description d, DriverOptions o, String prog,
                             ClockInfo clock) throws Exception {
        if (o.option("fault", "").equals("exit")) {
            System.err.println(prog + ": error: injected fault (--option fault=exit): exiting with"
                    + " status 3");
            return 3;
        }
        final ServerContext context = new ServerContext(o);
        StopSignals.install(signal -> context.requestStop());
        final LoopProbe probe = new LoopProbe();
        probe.start();
        driver.serve(o, context);
        probe.stop();
        // A server keeps no samples; its header says where it ran and what it used.
        if (o.output() != null) {
            final ResultHeader.Run run = ResultHeader.Run.server(probe, context.middlewareConfig());
            ResultFile.writeFile(Path.of(o.output()), ResultHeader.make(d, o, clock, run),
                    new long[0], List.of());
        }
        return 0;
    }

    private static int measure(Driver driver, Description d, DriverOptions o, String prog,
                               ClockInfo clock) throws Exception {
        final Measurement m;
        try {
            m = new Measurement(o, clock.readCostNs());
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("sample buffers of " + o.threads() + " x "
                    + o.samples() + " samples: out of memory (give the JVM more heap, -Xmx)");
        }
        if (m.injectedDelayNs() != 0) {
            System.err.println(prog + ": warning: MWBENCH_INJECT_DELAY_NS=" + m.injectedDelayNs()
                    + ": every call is slowed on purpose");
        }
        final AtomicReference<String> stoppedBy = new AtomicReference<>();
        StopSignals.install(signal -> {
            // The first signal ends the loop cleanly; a second one, sent because a call is
            // stuck (a hung server), ends the process at once.
            if (stoppedBy.getAndSet(signal) != null) {
                Runtime.getRuntime().halt(1);
            }
            m.requestStop();
        });
        driver.measure(o, m);
        if (!m.ran()) {
            throw new IllegalStateException("the driver returned without calling Measurement.run()");
        }
        final int kept = m.sampleCount();
        if (o.output() != null) {
            ResultFile.writeFile(Path.of(o.output()), ResultHeader.make(d, o, clock, m.record()),
                    m.kept().durations(), m.named());
        }
        if (kept < m.samplesWanted()) {
            System.err.println(prog + ": error: stopped by " + stoppedBy.get() + " after " + kept
                    + " of " + m.samplesWanted() + " samples"
                    + (o.output() == null ? "" : "; the result file holds those measured"));
            return 1;
        }
        return 0;
    }

    /**
     * One line for a failure: the message alone for the harness's and Java's own exceptions,
     * which say what they are; class and message for the others (a CORBA system exception's
     * message is often empty, its class and minor code are the news), and the cause's too.
     */
    static String describe(Throwable e) {
        final String message = e.getMessage();
        final String type = e.getClass().getName();
        final boolean plain = message != null && !message.isBlank()
                && (type.startsWith("java.") || type.startsWith(DriverMain.class.getPackageName()));
        String line = plain ? message : e.toString();
        final Throwable cause = e.getCause();
        if (cause != null && cause != e && (message == null || !message.contains(String.valueOf(
                cause.getMessage())))) {
            line += " (cause: " + describe(cause) + ")";
        }
        return line.replace('\n', ' ');
    }
}
