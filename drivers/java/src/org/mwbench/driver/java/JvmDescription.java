package org.mwbench.driver.java;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;

/**
 * The JVM as it ran, for the result header's middleware_config.jvm: its name
 * and version, the flags the launcher gave it (fixed heap, collector, logging:
 * mwbench-driver-java.in), the collectors it actually runs, the heap it may
 * use and the classpath, which names the ORB's jars.
 */
final class JvmDescription {
    private JvmDescription() {}

    static JsonObject describe() {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        JsonObject jvm = new JsonObject();
        jvm.addProperty("vm_name", System.getProperty("java.vm.name"));
        jvm.addProperty("vm_version", System.getProperty("java.vm.version"));
        jvm.addProperty("runtime_version", System.getProperty("java.runtime.version"));
        jvm.addProperty("vendor", System.getProperty("java.vm.vendor"));
        JsonArray arguments = new JsonArray();
        runtime.getInputArguments().forEach(arguments::add);
        jvm.add("input_arguments", arguments);
        JsonArray collectors = new JsonArray();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            collectors.add(collector.getName());
        }
        jvm.add("collectors", collectors);
        jvm.addProperty("max_heap_bytes", Runtime.getRuntime().maxMemory());
        jvm.addProperty("available_processors", Runtime.getRuntime().availableProcessors());
        jvm.addProperty("class_path", runtime.getClassPath());
        return jvm;
    }
}
