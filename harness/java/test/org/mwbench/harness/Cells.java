package org.mwbench.harness;

import java.util.List;

/** A driver's description and parsed command lines for the harness's tests. */
final class Cells {
    private Cells() {
    }

    /** Like a middleware driver's: two modes, an option with values and one without. */
    static Description description() {
        final Description d = new Description("jtest", "Test middleware", "1.0");
        d.operations.put("roundtrip", false);
        d.operations.put("octets", true);
        d.modes.put("remote", List.of("iiop", "uds"));
        d.modes.put("collocated", List.of("inproc"));
        d.options.put("orb", "which ORB");
        d.options.put("tag", "any text");
        d.optionValues.put("orb", List.of("jacorb", "glassfish"));
        d.maxServants = 4;
        d.hostLocal.add("uds");
        d.openLoop.add("roundtrip");
        return d;
    }

    static DriverOptions parse(String... args) {
        return Arguments.parse(args, description()).options();
    }

    /** A collocated cell with the arguments given after the required ones. */
    static DriverOptions collocated(String... more) {
        final String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"--role", "collocated", "--operation", "roundtrip",
            "--transport", "inproc"}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return parse(args);
    }
}
