package org.mwbench.harness;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;

/** The header of a result file (docs/driver-contract.md section 4), as the C++ harness makes it. */
final class ResultHeader {
    static final int CONTRACT_VERSION = 1;

    /** One thread's share of the samples: its count and its loop's wall time. */
    record Series(long count, long wallNs) {
    }

    /**
     * What the header needs beyond the arguments; a server's has no samples.
     *
     * @param load     an open loop's {@code load} object, or null
     * @param reported whether the driver timed the samples (Measurement.runReported)
     */
    record Run(long warmup, long batchSize, long sampleCount, long measuredWallNs, LoopProbe probe,
               JsonObject middlewareConfig, long injectedDelayNs, List<Series> series,
               List<NamedSeries> named, JsonObject load, boolean reported) {
        static Run server(LoopProbe probe, JsonObject middlewareConfig) {
            return new Run(0, 1, 0, 0, probe, middlewareConfig, 0, List.of(), List.of(), null,
                    false);
        }
    }

    private ResultHeader() {
    }

    static JsonObject make(Description d, DriverOptions o, ClockInfo clock, Run r) {
        final JsonObject header = new JsonObject();
        header.addProperty("contract", CONTRACT_VERSION);
        header.addProperty("driver", d.driver);
        header.addProperty("middleware", d.middleware);
        header.addProperty("middleware_version", d.middlewareVersion);
        header.addProperty("role", o.role().text());
        header.addProperty("operation", o.operation());
        header.addProperty("transport", o.transport());
        header.addProperty("payload_bytes", o.payloadBytes());
        header.addProperty("threads", o.threads());
        header.addProperty("servants", o.servants());
        final JsonObject options = new JsonObject();
        for (Map.Entry<String, String> option : o.options().entrySet()) {
            options.addProperty(option.getKey(), option.getValue());
        }
        header.add("options", options);
        header.addProperty("warmup", r.warmup());
        header.addProperty("batch_size", r.batchSize());
        header.addProperty("sample_count", r.sampleCount());
        header.addProperty("sample_unit", "ns");
        header.addProperty("measured_wall_ns", r.measuredWallNs());
        header.add("clock", clock.toJson());
        header.add("process", process(o, r.probe()));
        header.add("rusage", rusage(r.probe().usage()));
        if (r.middlewareConfig() != null && r.middlewareConfig().size() > 0) {
            header.add("middleware_config", r.middlewareConfig());
        }
        if (r.injectedDelayNs() != 0) {
            header.addProperty("injected_delay_ns", r.injectedDelayNs());
        }
        if (r.load() != null) {
            header.add("load", r.load());
        }
        if (r.reported()) {
            header.addProperty("timed_by", "driver");
        }
        if (r.series().size() > 1) {
            final JsonArray series = new JsonArray();
            for (int t = 0; t < r.series().size(); t++) {
                final JsonObject entry = new JsonObject();
                entry.addProperty("name", "thread-" + (t + 1));
                entry.addProperty("count", r.series().get(t).count());
                entry.addProperty("wall_ns", r.series().get(t).wallNs());
                series.add(entry);
            }
            header.add("series", series);
        }
        if (!r.named().isEmpty()) {
            final JsonArray named = new JsonArray();
            for (NamedSeries series : r.named()) {
                final JsonObject entry = new JsonObject();
                entry.addProperty("name", series.name());
                entry.addProperty("count", r.sampleCount());
                if (series.partOf() != null) {
                    entry.addProperty("part_of", series.partOf());
                }
                named.add(entry);
            }
            header.add("named_series", named);
        }
        return header;
    }

    private static JsonObject process(DriverOptions o, LoopProbe probe) {
        final ProcFiles.Scheduling scheduling = ProcFiles.scheduling();
        final JsonObject process = new JsonObject();
        process.addProperty("pid", ProcessHandle.current().pid());
        if (o.cpu() == null) {
            process.add("cpu_requested", JsonNull.INSTANCE);
        } else {
            process.addProperty("cpu_requested", o.cpu());
        }
        process.addProperty("cpu_first", probe.cpuFirst());
        process.addProperty("cpu_last", probe.cpuLast());
        process.addProperty("policy", scheduling.policy());
        process.addProperty("priority", scheduling.priority());
        return process;
    }

    private static JsonObject rusage(ProcFiles.Usage u) {
        final JsonObject rusage = new JsonObject();
        rusage.addProperty("voluntary_switches", u.voluntarySwitches());
        rusage.addProperty("involuntary_switches", u.involuntarySwitches());
        rusage.addProperty("user_us", u.userUs());
        rusage.addProperty("system_us", u.systemUs());
        rusage.addProperty("max_rss_kb", u.maxRssKb());
        return rusage;
    }
}
