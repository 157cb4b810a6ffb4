package org.mwbench.driver.java;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * The process's footprint at steady state, after the measured loop, as the
 * OpenCCM study measured it: the classes loaded at run time and their size,
 * and resident memory. Taken in process, without jcmd.
 *
 * <p>The DiagnosticCommand MBean's VM.classloader_stats gives, per class
 * loader, the classes and the metaspace they take (chunk and block bytes):
 * classes_loaded and class_bytes are its totals, the study's two figures.
 * Asking it needs the platform MBean server, which loads some 700 JDK classes
 * of its own: they are in both totals, the same in every configuration, so
 * differences between configurations are the ORB's and the component
 * layer's. classes_loaded_before_probe is the ClassLoadingMXBean's count,
 * read first, without them. The ORB, the stubs, the driver and the harness
 * are in the application loader ("app" in class_loaders).
 */
final class Footprint {
    // A row of VM.classloader_stats: address, parent, CLD, classes, chunk and block bytes, type.
    private static final Pattern LOADER_ROW = Pattern.compile(
            "^0x\\p{XDigit}+\\s+0x\\p{XDigit}+\\s+0x\\p{XDigit}+\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(.+)$");
    private static final Pattern TOTAL_ROW =
            Pattern.compile("^Total = \\d+\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s*$");

    private Footprint() {}

    static JsonObject measure() {
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        JsonObject footprint = new JsonObject();
        footprint.addProperty("classes_loaded_before_probe", classes.getLoadedClassCount());
        footprint.addProperty("classes_unloaded", classes.getUnloadedClassCount());
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        footprint.addProperty("heap_used_bytes", memory.getHeapMemoryUsage().getUsed());
        footprint.addProperty("non_heap_used_bytes", memory.getNonHeapMemoryUsage().getUsed());
        footprint.addProperty("threads", ManagementFactory.getThreadMXBean().getThreadCount());
        addResidentMemory(footprint);
        JsonObject loaders = classLoaderStats();
        footprint.add("class_loaders", loaders);
        if (loaders.has("total")) {
            JsonObject total = loaders.getAsJsonObject("total");
            footprint.addProperty("classes_loaded", total.get("classes").getAsLong());
            footprint.addProperty("class_bytes", total.get("block_bytes").getAsLong());
        }
        return footprint;
    }

    /** VmRSS and VmHWM of /proc/self/status, in KiB. */
    private static void addResidentMemory(JsonObject footprint) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:") || line.startsWith("VmHWM:")) {
                    String key = line.startsWith("VmRSS:") ? "rss_kb" : "hwm_kb";
                    footprint.addProperty(key, Long.parseLong(line.replaceAll("\\D", "")));
                }
            }
        } catch (IOException e) {
            footprint.addProperty("rss_kb", -1);
        }
    }

    /** Per loader ("app", "boot", "platform", other types by name) and "total". */
    private static JsonObject classLoaderStats() {
        JsonObject loaders = new JsonObject();
        String table;
        try {
            table = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "vmClassloaderStats", new Object[] {null},
                    new String[] {String[].class.getName()});
        } catch (Exception e) {
            loaders.addProperty("error", "VM.classloader_stats: " + e);
            return loaders;
        }
        for (String line : table.split("\n")) {
            Matcher row = LOADER_ROW.matcher(line.trim());
            Matcher total = TOTAL_ROW.matcher(line.trim());
            if (row.matches()) {
                add(loaders, loaderName(row.group(4).trim()), row.group(1), row.group(2), row.group(3));
            } else if (total.matches()) {
                add(loaders, "total", total.group(1), total.group(2), total.group(3));
            }
        }
        return loaders;
    }

    private static String loaderName(String type) {
        switch (type) {
            case "jdk.internal.loader.ClassLoaders$AppClassLoader":
                return "app";
            case "jdk.internal.loader.ClassLoaders$PlatformClassLoader":
                return "platform";
            case "<boot class loader>":
                return "boot";
            default:
                return type;
        }
    }

    /** Adds to the loader's entry: several loaders of one type (reflection's) add up. */
    private static void add(JsonObject loaders, String name, String classes, String chunk,
            String block) {
        JsonObject entry = loaders.has(name) ? loaders.getAsJsonObject(name) : new JsonObject();
        entry.addProperty("classes", value(entry, "classes") + Long.parseLong(classes));
        entry.addProperty("chunk_bytes", value(entry, "chunk_bytes") + Long.parseLong(chunk));
        entry.addProperty("block_bytes", value(entry, "block_bytes") + Long.parseLong(block));
        loaders.add(name, entry);
    }

    private static long value(JsonObject entry, String key) {
        return entry.has(key) ? entry.get(key).getAsLong() : 0;
    }
}
