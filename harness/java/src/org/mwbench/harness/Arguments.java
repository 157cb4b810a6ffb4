package org.mwbench.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The command line of a driver (docs/driver-contract.md section 2), checked against the
 * driver's Description as the C++ harness checks it, so that every message has the same
 * shape: "--argument value: what is wrong (allowed: ...)". "--name value" and
 * "--name=value" are both accepted; a repeated argument takes its last value, except
 * --option and --endpoint-file, which accumulate.
 *
 * @param options null with --describe or --help
 */
record Arguments(boolean describe, boolean help, DriverOptions options) {
    /** An option's value is at most a path long, so that a message quoting it is bounded. */
    static final int MAX_OPTION_VALUE = 4096;
    /** Samples per thread that one Java array holds, with the buffers' padding. */
    static final long MAX_SAMPLES = Integer.MAX_VALUE - 64;

    private static final List<String> VALUED = List.of("--role", "--operation", "--transport",
            "--payload-bytes", "--samples", "--warmup", "--batch", "--endpoint-file", "--output",
            "--cpu", "--priority", "--threads", "--servants", "--memory-limit-mb", "--option",
            "--timeout", "--subscribers", "--first-subscriber", "--bind", "--load", "--load-seed");

    static final String USAGE = """
            arguments as in docs/driver-contract.md:
              --describe                  print the driver's description as JSON and exit
              --role server|client|collocated
              --operation NAME            --transport NAME        --payload-bytes N
              --samples N (10000)         --warmup N (1000)       --batch N|auto (1)
              --endpoint-file PATH        --output PATH           --timeout S (10)
              --cpu N                     --priority N (0)        --bind ADDR (127.0.0.1)
              --threads N (1)             --servants N (1)        --option KEY=VALUE ...
              --subscribers N (1)         --first-subscriber I (0)
              --load closed|constant:RATE|poisson:RATE (closed)     --load-seed N
            """;

    static Arguments parse(String[] argv, Description d) {
        final Map<String, String> given = new HashMap<>();
        final List<String> endpointFiles = new ArrayList<>();
        final List<String> pairs = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            final String arg = argv[i];
            if (arg.equals("--describe")) {
                return new Arguments(true, false, null);
            }
            if (arg.equals("--help") || arg.equals("-h")) {
                return new Arguments(false, true, null);
            }
            final int eq = arg.indexOf('=');
            final String name = eq > 0 && arg.startsWith("--") ? arg.substring(0, eq) : arg;
            if (!VALUED.contains(name)) {
                throw new UsageException(shortened(arg) + ": unknown argument (see --help)");
            }
            final String value;
            if (eq > 0 && arg.startsWith("--")) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < argv.length) {
                value = argv[++i];
            } else {
                throw new UsageException(name + ": a value is required");
            }
            switch (name) {
                case "--endpoint-file" -> endpointFiles.add(value);
                case "--option" -> pairs.add(value);
                default -> given.put(name, value);
            }
        }
        return new Arguments(false, false, check(given, endpointFiles, pairs, d));
    }

    private static DriverOptions check(Map<String, String> given, List<String> endpointFiles,
                                       List<String> pairs, Description d) {
        final Role role = role(given.get("--role"), d);
        final String operation = given.getOrDefault("--operation", "");
        final String transport = given.getOrDefault("--transport", "");
        final long payload = unsigned(given, "--payload-bytes", 0);
        ArgumentChecks.cell(role, operation, transport, payload, d);
        final Map<String, String> options = ArgumentChecks.options(pairs, d);
        if (given.containsKey("--memory-limit-mb")) {
            final String limit = shortened(given.get("--memory-limit-mb"));
            throw new UsageException("--memory-limit-mb " + limit
                    + ": not supported by the Java harness: the JVM reserves far more address"
                    + " space than it uses (heap, code cache, metaspace, thread stacks), so an"
                    + " RLIMIT_AS cap fails it at start-up; run this driver without a memory"
                    + " limit");
        }
        final long samples = unsigned(given, "--samples", 10000);
        final long warmup = unsigned(given, "--warmup", 1000);
        final Long batch = batch(given.getOrDefault("--batch", "1"));
        final Integer cpu = given.containsKey("--cpu") ? integer(given, "--cpu", 0) : null;
        final int priority = integer(given, "--priority", 0);
        final int threads = integer(given, "--threads", 1);
        final int servants = integer(given, "--servants", 1);
        final double timeout = seconds(given.getOrDefault("--timeout", "10"));
        final int subscribers = integer(given, "--subscribers", 1);
        final int firstSubscriber = integer(given, "--first-subscriber", 0);
        final String bind = given.getOrDefault("--bind", "127.0.0.1");

        if (role != Role.SERVER && samples == 0) {
            throw new UsageException("--samples 0: at least 1 sample is needed");
        }
        if (samples > MAX_SAMPLES) {
            throw new UsageException("--samples " + samples + ": the Java harness keeps at most "
                    + MAX_SAMPLES + " samples per thread (one array)");
        }
        if (role != Role.COLLOCATED && endpointFiles.isEmpty()) {
            throw new UsageException("--endpoint-file is required for --role " + role.text());
        }
        if (role == Role.COLLOCATED && !endpointFiles.isEmpty()) {
            throw new UsageException("--endpoint-file: a collocated process has no server to find");
        }
        if (priority < 0 || priority > 99) {
            throw new UsageException("--priority " + priority
                    + ": must be 1-99, or 0 for the default policy");
        }
        ArgumentChecks.bound("--threads", threads, d.maxThreads, "max_threads", d.driver);
        ArgumentChecks.bound("--servants", servants, d.maxServants, "max_servants", d.driver);
        if (role != Role.SERVER && (long) threads * samples > MAX_SAMPLES) {
            throw new UsageException("--threads " + threads + " x --samples " + samples
                    + ": the Java harness keeps at most " + MAX_SAMPLES + " samples in all");
        }
        ArgumentChecks.fanout(operation, role, subscribers, firstSubscriber, endpointFiles.size());
        ArgumentChecks.bindAddress(bind);
        if (role == Role.SERVER && !endpointFiles.isEmpty()) {
            ArgumentChecks.writablePath("--endpoint-file", endpointFiles.get(0));
        }
        ArgumentChecks.writablePath("--output", given.get("--output"));
        final Load load = ArgumentChecks.load(given.get("--load"),
                given.containsKey("--load-seed"), role, operation, batch, threads, d);
        final Long loadSeed = ArgumentChecks.loadSeed(given.get("--load-seed"));
        // An open loop times each call on its own: --batch auto is 1.
        return new DriverOptions(role, operation, transport, payload, samples, warmup,
                load.open() ? Long.valueOf(1) : batch,
                endpointFiles.isEmpty() ? null : endpointFiles.get(0),
                Collections.unmodifiableList(endpointFiles), given.get("--output"), cpu, priority,
                threads, servants, timeout, bind, subscribers, firstSubscriber,
                Collections.unmodifiableMap(new TreeMap<>(options)), load, loadSeed);
    }

    private static Role role(String text, Description d) {
        if (text == null || text.isEmpty()) {
            throw new UsageException("--role is required (allowed: server, client, collocated)");
        }
        for (Role role : Role.values()) {
            if (role.text().equals(text)) {
                if (!d.modes.containsKey(role.mode())) {
                    throw new UsageException("--role " + text + ": mode '" + role.mode()
                            + "' is not supported by " + d.driver + " (supported modes: "
                            + ArgumentChecks.join(d.modes.keySet()) + ")");
                }
                return role;
            }
        }
        throw new UsageException("--role " + shortened(text)
                + ": unknown role (allowed: server, client, collocated)");
    }

    private static long unsigned(Map<String, String> given, String name, long fallback) {
        final String text = given.get(name);
        if (text == null) {
            return fallback;
        }
        if (!text.matches("[0-9]{1,18}")) {
            throw new UsageException(
                    name + " " + shortened(text) + ": expected a non-negative integer");
        }
        return Long.parseLong(text);
    }

    private static int integer(Map<String, String> given, String name, int fallback) {
        final String text = given.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " " + shortened(text) + ": expected an integer");
        }
    }

    private static Long batch(String text) {
        if (text.equals("auto")) {
            return null;
        }
        if (!text.matches("[0-9]{1,18}") || Long.parseLong(text) == 0) {
            throw new UsageException("--batch " + shortened(text)
                    + ": expected a positive integer or 'auto'");
        }
        return Long.parseLong(text);
    }

    private static double seconds(String text) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new UsageException(
                    "--timeout " + shortened(text) + ": must be a positive number");
        }
        return value;
    }

    /** Text from the command line, cut short for a message. */
    static String shortened(String text) {
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }
}
