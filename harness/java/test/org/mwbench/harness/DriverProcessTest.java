package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example driver (example/SleepDriver.java) run as the orchestrator runs a driver: real
 * processes, the endpoint file, signals, and the result files they leave.
 */
class DriverProcessTest {
    private static final long LIMIT_S = 60; // a bound on a hung process, not a wait
    private final List<Process> started = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void killWhatWasStarted() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void serverAndClientWriteTheContractsFiles() throws Exception {
        final String cpu = lastAllowedCpu();
        final Path endpoint = dir.resolve("endpoint");
        final Process server = start(List.of(), "--role", "server", "--operation", "roundtrip",
                "--transport", "none", "--endpoint-file", endpoint.toString(), "--output",
                dir.resolve("server.result").toString(), "--cpu", cpu);
        waitForFile(endpoint, server);
        assertEquals(List.of(cpu), cpusOfEveryThread(server.pid()));

        final Process client = start(List.of(), "--role", "client", "--operation", "roundtrip",
                "--transport", "none", "--endpoint-file", endpoint.toString(), "--output",
                dir.resolve("client.result").toString(), "--samples", "300", "--warmup", "50",
                "--threads", "2", "--batch", "auto", "--option", "named=1");
        assertEquals(0, exitOf(client), stderr(client));
        final List<String> lines = Files.readAllLines(dir.resolve("client.result"));
        final JsonObject header = JsonParser.parseString(lines.get(1)).getAsJsonObject();
        assertEquals("mwbench-result 1", lines.get(0));
        assertEquals(600, header.get("sample_count").getAsInt());
        assertEquals(2, header.getAsJsonArray("series").size());
        assertEquals(50, header.get("warmup").getAsInt());
        assertEquals("sleep:" + server.pid(),
                header.getAsJsonObject("middleware_config").get("endpoint").getAsString());
        assertEquals("{\"count\":600,\"name\":\"end_ms\"}",
                Json.compact(header.getAsJsonArray("named_series").get(0)));
        assertEquals(2 + 600 + 1 + 600 + 1, lines.size());
        assertEquals("end", lines.get(lines.size() - 1));

        server.destroy(); // SIGTERM
        assertEquals(0, exitOf(server), stderr(server));
        final List<String> serverLines = Files.readAllLines(dir.resolve("server.result"));
        final JsonObject serverHeader =
                JsonParser.parseString(serverLines.get(1)).getAsJsonObject();
        assertEquals(List.of("mwbench-result 1", serverLines.get(1), "end"), serverLines);
        assertEquals(0, serverHeader.get("sample_count").getAsInt());
        assertEquals("server", serverHeader.get("role").getAsString());
        assertEquals(Integer.parseInt(cpu), serverHeader.getAsJsonObject("process")
                .get("cpu_requested").getAsInt());
    }

    @Test
    void sigtermWhileMeasuringKeepsTheSamplesAndExitsOne() throws Exception {
        final Path measuring = dir.resolve("measuring");
        final Path output = dir.resolve("client.result");
        final Process client = start(List.of("MWBENCH_MEASURING_FILE=" + measuring),
                "--role", "collocated", "--operation", "roundtrip", "--transport", "inproc",
                "--samples", "5000000", "--output", output.toString());
        waitForFile(measuring, client);
        client.destroy();
        assertEquals(1, exitOf(client));
        final String error = stderr(client);
        assertTrue(error.startsWith("mwbench-driver-jsleep: error: stopped by SIGTERM after "),
                error);
        final List<String> lines = Files.readAllLines(output);
        final int count = JsonParser.parseString(lines.get(1)).getAsJsonObject()
                .get("sample_count").getAsInt();
        assertTrue(count >= 1 && count < 5000000, "count " + count);
        assertEquals(count + 3, lines.size());
    }

    @Test
    void anInjectedDelayIsInsideEverySample() throws Exception {
        final Path output = dir.resolve("client.result");
        final Process client = start(List.of("MWBENCH_INJECT_DELAY_NS=200000"), "--role",
                "collocated", "--operation", "roundtrip", "--transport", "inproc",
                "--samples", "20", "--warmup", "0", "--output", output.toString());
        assertEquals(0, exitOf(client));
        assertTrue(stderr(client).contains("warning: MWBENCH_INJECT_DELAY_NS=200000"));
        final List<String> lines = Files.readAllLines(output);
        assertEquals(200000, JsonParser.parseString(lines.get(1)).getAsJsonObject()
                .get("injected_delay_ns").getAsLong());
        for (String sample : lines.subList(2, 22)) {
            assertTrue(Long.parseLong(sample) >= 200000, sample);
        }
    }

    @Test
    void aWrongReplyFailsTheRunWithOneLine() throws Exception {
        final Process client = start(List.of(), "--role", "collocated", "--operation", "roundtrip",
                "--transport", "inproc", "--threads", "2", "--option", "check=wrong",
                "--output", dir.resolve("client.result").toString());
        assertEquals(1, exitOf(client));
        final String error = stderr(client);
        assertTrue(error.matches("mwbench-driver-jsleep: error: wrong reply on thread [01]\n"),
                error);
        assertFalse(Files.exists(dir.resolve("client.result")));
    }

    @Test
    void faultExitLeavesBeforePublishingAndCrashAfter() throws Exception {
        final Path endpoint = dir.resolve("endpoint");
        final Process exit = start(List.of(), "--role", "server", "--operation", "roundtrip",
                "--transport", "none", "--endpoint-file", endpoint.toString(),
                "--option", "fault=exit");
        assertEquals(3, exitOf(exit));
        assertFalse(Files.exists(endpoint));
        final Process crash = start(List.of(), "--role", "server", "--operation", "roundtrip",
                "--transport", "none", "--endpoint-file", endpoint.toString(),
                "--option", "fault=crash");
        assertEquals(128 + 6, exitOf(crash)); // killed by SIGABRT
        assertTrue(Files.exists(endpoint));
    }

    @Test
    void priorityIsSchedFifoOrAnErrorNamingChrt() throws Exception {
        final Path output = dir.resolve("client.result");
        final Process client = start(List.of(), "--role", "collocated", "--operation", "roundtrip",
                "--transport", "inproc", "--samples", "10", "--priority", "1",
                "--output", output.toString());
        if (exitOf(client) == 0) {
            final JsonObject process = JsonParser.parseString(Files.readAllLines(output).get(1))
                    .getAsJsonObject().getAsJsonObject("process");
            assertEquals("{\"policy\":\"SCHED_FIFO\",\"priority\":1}", "{\"policy\":"
                    + process.get("policy") + ",\"priority\":" + process.get("priority") + "}");
        } else {
            assertEquals(1, client.exitValue());
            assertTrue(stderr(client).contains("--priority 1: chrt -f -p 1 "), stderr(client));
        }
    }

    @Test
    void describeIsOneLineOfJson() throws Exception {
        final Process describe = start(List.of(), "--describe");
        assertEquals(0, exitOf(describe));
        final List<String> lines = new String(describe.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size());
        final JsonObject json = JsonParser.parseString(lines.get(0)).getAsJsonObject();
        assertEquals(1, json.get("contract").getAsInt());
        assertEquals("[\"right\",\"wrong\"]", json.getAsJsonObject("option_values").get("check")
                .toString());
    }

    private Process start(List<String> environment, String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"),
                "org.mwbench.harness.example.SleepDriver"));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command);
        for (String variable : environment) {
            final String[] pair = variable.split("=", 2);
            builder.environment().put(pair[0], pair[1]);
        }
        builder.redirectError(dir.resolve("stderr-" + started.size()).toFile());
        final Process process = builder.start();
        started.add(process);
        return process;
    }

    private String stderr(Process process) throws IOException {
        return Files.readString(dir.resolve("stderr-" + started.indexOf(process)));
    }

    private static int exitOf(Process process) throws InterruptedException {
        assertTrue(process.waitFor(LIMIT_S, TimeUnit.SECONDS), "no exit within " + LIMIT_S + " s");
        return process.exitValue();
    }

    /** Until {@code file} exists, failing if {@code process}, which makes it, exits first. */
    private static void waitForFile(Path file, Process process) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_S);
        while (!Files.exists(file)) {
            assertTrue(process.isAlive(), "exited with " + (process.isAlive() ? 0
                    : process.exitValue()) + " before making " + file);
            assertTrue(System.nanoTime() < deadline, "no " + file + " within " + LIMIT_S + " s");
            Thread.sleep(10);
        }
    }

    private static String lastAllowedCpu() throws IOException {
        final String[] ranges = ProcFiles.cpusAllowed(Path.of("/proc/self/status")).split("[,-]");
        return ranges[ranges.length - 1];
    }

    /** The distinct Cpus_allowed_list of every thread of process {@code pid}. */
    private static List<String> cpusOfEveryThread(long pid) throws IOException {
        final List<String> cpus = new ArrayList<>();
        final Path taskDir = Path.of("/proc/" + pid + "/task");
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                final String allowed = ProcFiles.cpusAllowed(task.resolve("status"));
                if (!cpus.contains(allowed)) {
                    cpus.add(allowed);
                }
            }
        }
        return cpus;
    }
}
