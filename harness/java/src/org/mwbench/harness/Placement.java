package org.mwbench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * --cpu and --priority without JNI: Java cannot set a thread's affinity or policy, so the
 * harness runs util-linux's taskset and chrt on its own process, with argument lists.
 *
 * <p>--cpu pins every thread of the JVM ({@code taskset -a -p -c N PID}) before the driver
 * starts any: the JVM's own threads (GC, JIT compilers) share the CPU as a C++ middleware's
 * do, and every thread created later inherits the affinity of the thread that creates it.
 * --priority gives SCHED_FIFO to the thread that serves or measures
 * ({@code chrt -f -p N TID}) before the driver runs; the threads it starts inherit it.
 */
final class Placement {
    private Placement() {
    }

    /** Pins every thread of this process to {@code cpu}; UsageException if not allowed. */
    static void pinProcess(int cpu) throws IOException, InterruptedException {
        final String allowed = ProcFiles.cpusAllowed(Path.of("/proc/self/status"));
        if (cpu < 0 || !ProcFiles.cpuListContains(allowed, cpu)) {
            throw new UsageException("--cpu " + cpu
                    + ": not a CPU this process may run on (allowed: " + allowed + ")");
        }
        final String pid = Long.toString(ProcessHandle.current().pid());
        // A JVM thread started while taskset walked the task list could escape it: check
        // every thread afterwards and pin again if one did.
        for (int attempt = 0; attempt < 3; attempt++) {
            run("--cpu " + cpu, List.of("taskset", "-a", "-p", "-c", Integer.toString(cpu), pid));
            if (allThreadsOn(Integer.toString(cpu))) {
                return;
            }
        }
        throw new IllegalStateException("--cpu " + cpu
                + ": threads of the JVM are still not on CPU " + cpu + " after taskset");
    }

    /** SCHED_FIFO at {@code priority} for the calling thread. */
    static void setFifoPriority(int priority) throws IOException, InterruptedException {
        // "/proc/thread-self" links to "<pid>/task/<tid>".
        final Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
        final String tid = link.getFileName().toString();
        run("--priority " + priority, List.of("chrt", "-f", "-p", Integer.toString(priority), tid));
    }

    private static boolean allThreadsOn(String cpu) throws IOException {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    if (!ProcFiles.cpusAllowed(task.resolve("status")).equals(cpu)) {
                        return false;
                    }
                } catch (IOException ended) {
                    // the thread exited meanwhile
                }
            }
        }
        return true;
    }

    /** Runs {@code command}; a failure names the argument, the command and its output. */
    private static void run(String argument, List<String> command)
            throws IOException, InterruptedException {
        final String line = String.join(" ", command);
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(argument + ": cannot run " + line + ": " + e.getMessage()
                    + " (taskset and chrt come with util-linux)", e);
        }
        process.getOutputStream().close();
        final String output = new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip().replace('\n', ' ');
        final int status = process.waitFor();
        if (status != 0) {
            throw new IOException(argument + ": " + line + " failed (status " + status + "): "
                    + output + (command.get(0).equals("chrt")
                    ? " (SCHED_FIFO needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO, ulimit -r, of at"
                      + " least the priority)" : ""));
        }
    }
}
