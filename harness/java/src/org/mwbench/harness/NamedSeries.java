package org.mwbench.harness;

/**
 * A named series (docs/driver-contract.md section 4): a part of each sample the driver
 * timed or attributed itself, one value per sample, in the file's order of samples.
 *
 * @param partOf the series this one is a segment of, or null
 */
record NamedSeries(String name, String partOf, long[] values) {
    /** [a-z][a-z0-9_]*, at most 64 characters, as the orchestrator's reader requires. */
    static boolean validName(String name) {
        return name != null && name.length() <= 64 && name.matches("[a-z][a-z0-9_]*");
    }
}
