package org.mwbench.harness;

import java.util.List;

/**
 * A named series (docs/driver-contract.md section 4): a part of each sample the driver
 * timed or attributed itself, one value per sample, in the file's order of samples.
 *
 * @param partOf the series this one is a segment of, or null
 */
record NamedSeries(String name, String partOf, long[] values) {
    /**
     * Adds a series of {@code size} values to {@code declared} and returns it. Throws
     * UsageException for a bad or repeated name or an unknown {@code partOf}.
     */
    static NamedSeries declare(List<NamedSeries> declared, String name, String partOf,
                               int size) {
        if (!validName(name)) {
            throw new UsageException("named series '" + name
                    + "': a name is [a-z][a-z0-9_]*, at most 64 long");
        }
        boolean parentFound = partOf == null || partOf.isEmpty();
        for (NamedSeries series : declared) {
            if (series.name().equals(name)) {
                throw new UsageException("named series '" + name + "' declared twice");
            }
            parentFound = parentFound || series.name().equals(partOf);
        }
        if (!parentFound) {
            throw new UsageException("named series '" + name + "' is part of '" + partOf
                    + "', which is not declared before it");
        }
        final NamedSeries series = new NamedSeries(name,
                partOf == null || partOf.isEmpty() ? null : partOf, new long[size]);
        declared.add(series);
        return series;
    }

    /** [a-z][a-z0-9_]*, at most 64 characters, as the orchestrator's reader requires. */
    static boolean validName(String name) {
        return name != null && name.length() <= 64 && name.matches("[a-z][a-z0-9_]*");
    }
}
