package org.mwbench.harness;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a driver is and what it can measure: the --describe object
 * (docs/driver-contract.md section 1), and what the harness checks every argument against.
 * A driver names its three names, then fills in the rest:
 *
 * <pre>
 * Description d = new Description("jacorb", "JacORB", "3.9");
 * d.operations.put("roundtrip", false);
 * d.modes.put("remote", List.of("iiop"));
 * d.options.put("orb", "the ORB: jacorb or glassfish");
 * d.optionValues.put("orb", List.of("jacorb", "glassfish"));
 * </pre>
 */
public final class Description {
    /** The {@code <name>} of mwbench-driver-{@code <name>}. */
    public final String driver;
    public final String middleware;
    public final String middlewareVersion;
    /** Operation name to whether it carries a payload of --payload-bytes. */
    public final Map<String, Boolean> operations = new TreeMap<>();
    /** "remote" and/or "collocated" to the transports of that mode. */
    public final Map<String, List<String>> modes = new TreeMap<>();
    /** The --option keys the driver accepts, each with one line of help. */
    public final Map<String, String> options = new TreeMap<>();
    /** Bound of --threads; null: no bound. A driver whose measure() calls run() sets 1. */
    public Integer maxThreads;
    /** Bound of --servants; null: no bound. */
    public Integer maxServants;
    /** The transports of {@link #modes} that cannot cross hosts (Unix sockets, shared memory). */
    public final List<String> hostLocal = new ArrayList<>();
    /** Option to value to the transports that value works over; a value not listed: all. */
    public final Map<String, Map<String, List<String>>> optionTransports = new TreeMap<>();
    /**
     * Option to the values it accepts ({@code "option_values"} in --describe); the harness
     * refuses any other value with exit 2. An option not listed takes any value.
     */
    public final Map<String, List<String>> optionValues = new TreeMap<>();

    /**
     * The operations the driver can run under an open-loop --load ({@code "open_loop"} in
     * --describe; the driver's measure() then calls {@link Measurement#runOpen}).
     */
    public final List<String> openLoop = new ArrayList<>();
    /**
     * Option to the values with which the driver times one-way figures from two processes'
     * clocks ({@code "one_way_options"}): such a cell cannot cross hosts.
     */
    public final Map<String, List<String>> oneWayOptions = new TreeMap<>();

    public Description(String driver, String middleware, String middlewareVersion) {
        this.driver = driver;
        this.middleware = middleware;
        this.middlewareVersion = middlewareVersion;
    }

    /**
     * The --describe object: "contract" and the fields above; max_threads, max_servants,
     * host_local, option_transports, option_values, open_loop and one_way_options only
     * when set.
     */
    public JsonObject toJson() {
        final Gson gson = new Gson();
        final JsonObject out = new JsonObject();
        out.addProperty("contract", ResultHeader.CONTRACT_VERSION);
        out.addProperty("driver", driver);
        out.addProperty("middleware", middleware);
        out.addProperty("middleware_version", middlewareVersion);
        final JsonObject ops = new JsonObject();
        for (Map.Entry<String, Boolean> op : operations.entrySet()) {
            final JsonObject entry = new JsonObject();
            entry.addProperty("payload", op.getValue());
            ops.add(op.getKey(), entry);
        }
        out.add("operations", ops);
        out.add("modes", gson.toJsonTree(modes));
        out.add("options", gson.toJsonTree(options));
        if (maxThreads != null) {
            out.addProperty("max_threads", maxThreads);
        }
        if (maxServants != null) {
            out.addProperty("max_servants", maxServants);
        }
        if (!hostLocal.isEmpty()) {
            out.add("host_local", gson.toJsonTree(hostLocal));
        }
        if (!optionTransports.isEmpty()) {
            out.add("option_transports", gson.toJsonTree(optionTransports));
        }
        if (!optionValues.isEmpty()) {
            out.add("option_values", gson.toJsonTree(optionValues));
        }
        if (!openLoop.isEmpty()) {
            out.add("open_loop", gson.toJsonTree(openLoop));
        }
        if (!oneWayOptions.isEmpty()) {
            out.add("one_way_options", gson.toJsonTree(oneWayOptions));
        }
        return out;
    }
}
