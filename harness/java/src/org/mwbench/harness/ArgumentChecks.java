package org.mwbench.harness;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The checks of {@link Arguments} that compare the arguments with the Description. */
final class ArgumentChecks {
    private ArgumentChecks() {
    }

    /** "a, b, c", or "none". */
    static String join(Collection<String> items) {
        return items.isEmpty() ? "none" : String.join(", ", items);
    }

    static void cell(Role role, String operation, String transport, long payload, Description d) {
        final Boolean carriesPayload = d.operations.get(operation);
        if (carriesPayload == null) {
            throw new UsageException((operation.isEmpty() ? "--operation is required"
                    : "--operation " + Arguments.shortened(operation) + ": unknown to " + d.driver)
                    + " (allowed: " + join(d.operations.keySet()) + ")");
        }
        if (!carriesPayload && payload != 0) {
            throw new UsageException("--payload-bytes " + payload + ": operation '" + operation
                    + "' carries no payload (allowed: 0)");
        }
        final List<String> transports = d.modes.get(role.mode());
        if (!transports.contains(transport)) {
            throw new UsageException((transport.isEmpty() ? "--transport is required"
                    : "--transport " + Arguments.shortened(transport) + ": not supported in mode "
                    + role.mode()) + " (allowed: " + join(transports) + ")");
        }
    }

    /** The --option pairs: known keys, allowed values, one bounded line each. */
    static Map<String, String> options(List<String> pairs, Description d) {
        final Map<String, String> options = new TreeMap<>();
        for (String pair : pairs) {
            final int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--option " + Arguments.shortened(pair)
                        + ": expected KEY=VALUE");
            }
            final String key = Arguments.shortened(pair.substring(0, eq));
            final String value = pair.substring(eq + 1);
            if (value.length() > Arguments.MAX_OPTION_VALUE) {
                throw new UsageException("--option " + key + ": a value of " + value.length()
                        + " characters (at most " + Arguments.MAX_OPTION_VALUE + ")");
            }
            if (value.chars().anyMatch(c -> c < 0x20)) {
                throw new UsageException("--option " + key
                        + ": a value holds a control character (a newline, a tab...)");
            }
            if (key.equals("fault")) {
                if (!List.of("exit", "crash", "hang").contains(value)) {
                    throw new UsageException("--option fault=" + Arguments.shortened(value)
                            + ": unknown fault (allowed: exit, crash, hang)");
                }
            } else if (!d.options.containsKey(key)) {
                final List<String> allowed = new ArrayList<>(d.options.keySet());
                allowed.add("fault");
                throw new UsageException("--option " + key + ": unknown key for " + d.driver
                        + " (allowed: " + join(allowed) + ")");
            } else if (d.optionValues.containsKey(key)
                    && !d.optionValues.get(key).contains(value)) {
                throw new UsageException("--option " + key + "=" + Arguments.shortened(value)
                        + ": not a value of " + key + " (allowed: " + join(d.optionValues.get(key))
                        + ")");
            }
            options.put(key, value);
        }
        return options;
    }

    /**
     * --load: a client's or collocated process's; an open loop sends one call per sample
     * from one thread, for an operation the driver lists in open_loop.
     */
    static Load load(String text, boolean seedGiven, Role role, String operation, Long batch,
                     int threads, Description d) {
        if (role == Role.SERVER && (text != null || seedGiven)) {
            throw new UsageException((text != null ? "--load " + Arguments.shortened(text)
                    : "--load-seed") + ": a server sends no load; only a client or a collocated"
                    + " process takes it");
        }
        final Load load = text == null ? Load.CLOSED : Load.parse(text);
        if (!load.open()) {
            return load;
        }
        final String given = "--load " + load;
        if (threads != 1) {
            throw new UsageException(given + ": an open loop sends from one thread (--threads 1,"
                    + " not " + threads + ")");
        }
        if (batch != null && batch != 1) {
            throw new UsageException(given + ": an open loop times each call on its own"
                    + " (--batch 1 or auto, not " + batch + ")");
        }
        if (!d.openLoop.contains(operation)) {
            throw new UsageException(given + ": " + d.driver
                    + " has no open-loop load for operation " + operation + " (open_loop: "
                    + join(d.openLoop) + ")");
        }
        return load;
    }

    /** --load-seed: an unsigned 64-bit integer, or null when not given. */
    static Long loadSeed(String text) {
        if (text == null) {
            return null;
        }
        if (text.matches("[0-9]{1,20}")) {
            try {
                return Long.parseUnsignedLong(text);
            } catch (NumberFormatException e) {
                // beyond 2^64 - 1: the message below
            }
        }
        throw new UsageException("--load-seed " + Arguments.shortened(text)
                + ": expected an integer from 0 to 2^64 - 1");
    }

    /** --threads and --servants: at least 1, at most what the driver declares. */
    static void bound(String argument, int value, Integer max, String key, String driver) {
        if (value < 1) {
            throw new UsageException(argument + " " + value + ": must be at least 1");
        }
        if (max != null && value > max) {
            throw new UsageException(argument + " " + value + ": " + driver + " supports at most "
                    + max + " (" + key + " in --describe)");
        }
    }

    /**
     * --subscribers, --first-subscriber and several --endpoint-file belong to the operation
     * "fanout", which the Java harness does not measure (it has no fan-out tally).
     */
    static void fanout(String operation, Role role, int subscribers, int firstSubscriber,
                       int endpointFiles) {
        if (operation.equals("fanout")) {
            throw new UsageException(
                    "--operation fanout: the Java harness does not measure fan-out");
        }
        if (subscribers != 1) {
            throw new UsageException("--subscribers " + subscribers
                    + ": only the operation 'fanout' has subscribers");
        }
        if (firstSubscriber != 0) {
            throw new UsageException("--first-subscriber: only the operation 'fanout' takes it");
        }
        if (endpointFiles > 1) {
            throw new UsageException("--endpoint-file given " + endpointFiles
                    + " times: only a fan-out client reads several");
        }
    }

    /**
     * --bind takes an IPv4 literal only, as inet_pton() reads one (four decimal numbers up to
     * 255, no leading zeros): a name would need a resolver, and an endpoint must carry the
     * very address bound. The wildcard is refused: nothing a driver opens listens on every
     * interface.
     */
    /**
     * The files a driver writes are renamed into place (PATH.tmp, then a rename),
     * which replaces whatever the name held: a device such as /dev/null, run as
     * root, would become a regular file. So an existing path must be a regular file.
     */
    static void writablePath(String argument, String path) {
        if (path == null) {
            return;
        }
        Path file = Path.of(path);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new UsageException(argument + " " + Arguments.shortened(path) + ": not a regular"
                    + " file; the driver writes PATH.tmp and renames it to PATH, which would"
                    + " replace it");
        }
    }

    static void bindAddress(String address) {
        final String given = "--bind " + (address.isEmpty() ? "''" : Arguments.shortened(address));
        final String octet = "(0|[1-9][0-9]{0,2})";
        boolean valid = address.matches(octet + "(\\." + octet + "){3}");
        if (valid) {
            for (String part : address.split("\\.")) {
                valid = valid && Integer.parseInt(part) <= 255;
            }
        }
        if (!valid) {
            throw new UsageException(given
                    + ": not an IPv4 address (allowed: a dotted-quad literal such as 127.0.0.1)");
        }
        if (address.equals("0.0.0.0")) {
            throw new UsageException(given + ": the wildcard address"
                    + " (allowed: one address of this host, such as 127.0.0.1)");
        }
    }
}
