package org.mwbench.harness;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Path;
import java.util.List;

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
                // UTF-8 whatever the locale: Java 17 would encode with the locale's charset.
                System.out.write((Json.compact(d.toJson()) + "\n").getBytes(UTF_8));
                System.out.flush();
                return 0;
            }
            final DriverOptions o = arguments.options();
            final StopSignals signals = StopSignals.install();
            // Before the driver starts any thread, so that every thread inherits the CPU.
            if (o.cpu() != null) {
                Placement.pinProcess(o.cpu());
            }
            if (o.priority() > 0) {
                Placement.setFifoPriority(o.priority());
            }
            final ClockInfo clock = ClockInfo.probe();
            return o.role() == Role.SERVER ? serve(driver, d, o, new Run(prog, clock, signals))
                    : measure(driver, d, o, new Run(prog, clock, signals));
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

    /** What both roles need besides the driver and the arguments. */
    private record Run(String prog, ClockInfo clock, StopSignals signals) {
    }

    private static int serve(Driver driver, Description d, DriverOptions o, Run run)
            throws Exception {
        if (o.option("fault", "").equals("exit")) {
            System.err.println(run.prog()
                    + ": error: injected fault (--option fault=exit): exiting with status 3");
            return 3;
        }
        final ServerContext context = new ServerContext(o);
        run.signals().onStop(context::requestStop, false);
        final LoopProbe probe = new LoopProbe();
        probe.start();
        driver.serve(o, context);
        probe.stop();
        // A server keeps no samples; its header says where it ran and what it used.
        if (o.output() != null) {
            final ResultHeader.Run served = ResultHeader.Run.server(probe,
                    context.middlewareConfig());
            ResultFile.writeFile(Path.of(o.output()), ResultHeader.make(d, o, run.clock(), served),
                    new long[0], List.of());
        }
        return 0;
    }

    private static int measure(Driver driver, Description d, DriverOptions o, Run run)
            throws Exception {
        final Measurement m;
        try {
            m = new Measurement(o, run.clock().readCostNs());
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("sample buffers of " + o.threads() + " x "
                    + o.samples() + " samples: out of memory (give the JVM more heap, -Xmx)");
        }
        if (m.injectedDelayNs() != 0) {
            System.err.println(run.prog() + ": warning: MWBENCH_INJECT_DELAY_NS="
                    + m.injectedDelayNs() + ": every call is slowed on purpose");
        }
        // The first signal ends the loop cleanly, a second one the process.
        run.signals().onStop(m::requestStop, true);
        driver.measure(o, m);
        if (!m.ran()) {
            throw new IllegalStateException(
                    "the driver returned without calling Measurement.run()");
        }
        final int kept = m.sampleCount();
        final ResultHeader.Run record = m.record();
        if (o.output() != null) {
            ResultFile.writeFile(Path.of(o.output()),
                    ResultHeader.make(d, o, run.clock(), record), m.kept().durations(),
                    m.named());
        }
        // An open loop's lost calls are a figure of the run (the header's "load"), not a stop.
        final long lost = record.load() != null ? record.load().get("lost").getAsLong() : 0;
        if (lost > 0) {
            System.err.println(run.prog() + ": warning: " + lost + " of "
                    + record.load().get("calls").getAsLong() + " calls unanswered after "
                    + o.timeoutSeconds() + " s without a reply (--timeout): left out as lost");
        }
        if (kept + lost < m.samplesWanted()) {
            System.err.println(run.prog() + ": error: stopped by " + run.signals().first()
                    + " after " + kept
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
