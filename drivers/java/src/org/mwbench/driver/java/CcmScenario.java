package org.mwbench.driver.java;

import java.util.List;
import org.mwbench.harness.DriverOptions;
import org.mwbench.harness.Role;
import org.mwbench.harness.UsageException;

/**
 * CCMPerf's four scenarios, as drivers/ccm has them: client then server, each
 * a plain object or a component of the Java component layer (components/java).
 * --option scenario names one; --option layer=object|component is the
 * factorial's two levels, obj-obj and comp-comp (the same as the scenario, so
 * both may be given only alike).
 */
final class CcmScenario {
    static final List<String> NAMES = List.of("obj-obj", "obj-comp", "comp-obj", "comp-comp");
    static final List<String> LAYERS = List.of("object", "component");

    final String name;
    final boolean componentClient;
    final boolean componentServer;

    private CcmScenario(String name) {
        this.name = name;
        this.componentClient = name.startsWith("comp-");
        this.componentServer = name.endsWith("-comp");
    }

    static CcmScenario of(DriverOptions options) {
        String scenario = options.option("scenario", "");
        String layer = options.option("layer", "");
        if (!scenario.isEmpty() && !NAMES.contains(scenario)) {
            throw new UsageException("--option scenario=" + scenario + ": must be one of " + NAMES);
        }
        if (!layer.isEmpty() && !LAYERS.contains(layer)) {
            throw new UsageException("--option layer=" + layer + ": must be object or component");
        }
        String byLayer = layer.isEmpty() ? "" : layer.equals("object") ? "obj-obj" : "comp-comp";
        if (!scenario.isEmpty() && !byLayer.isEmpty() && !scenario.equals(byLayer)) {
            throw new UsageException("--option layer=" + layer + " is scenario " + byLayer
                    + ", not the --option scenario=" + scenario + " also given");
        }
        CcmScenario chosen = new CcmScenario(!scenario.isEmpty() ? scenario
                : !byLayer.isEmpty() ? byLayer : "obj-obj");
        boolean mixed = chosen.componentClient != chosen.componentServer;
        if (options.role() == Role.COLLOCATED && mixed) {
            throw new UsageException("--option scenario=" + chosen.name
                    + ": collocated runs obj-obj and comp-comp only (CCMPerf's homogeneous pairs)");
        }
        if ((chosen.componentClient || chosen.componentServer) && options.servants() != 1) {
            throw new UsageException("--servants " + options.servants() + " with --option scenario="
                    + chosen.name + ": a component scenario has one Receiver (--servants 1)");
        }
        return chosen;
    }
}
