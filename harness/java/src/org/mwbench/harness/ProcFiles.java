package org.mwbench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the C++ harness asks the kernel directly (sched_getcpu, getrusage,
 * pthread_getschedparam), read from /proc instead: Java has no call for it, and this
 * harness uses no JNI. Read before and after the measured loop, never inside it.
 */
final class ProcFiles {
    /**
     * /proc reports CPU times in clock ticks of USER_HZ, which Linux fixes at 100 on every
     * architecture for user space (sysconf(_SC_CLK_TCK)): user_us and system_us therefore
     * have a resolution of 10 ms, where getrusage() in the C++ harness has microseconds.
     */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    /** Resource use of the whole process at one moment (the contract's "rusage"). */
    record Usage(long voluntarySwitches, long involuntarySwitches, long userUs, long systemUs,
                 long maxRssKb) {
    }

    /** A thread's policy and priority, as the result header's "process" has them. */
    record Scheduling(String policy, int priority) {
    }

    /** Bytes read at once: a status file holds about 1.5 kB. */
    private static final int READ_BUFFER = 8192;

    private ProcFiles() {
    }

    /** The CPU the calling thread last ran on: field 39 (processor) of its stat. */
    static int currentCpu() {
        try {
            return Integer.parseInt(statField(Path.of("/proc/thread-self/stat"), 39));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The calling thread's policy (stat field 41) and real-time priority (field 40). */
    static Scheduling scheduling() {
        try {
            final Path stat = Path.of("/proc/thread-self/stat");
            final int policy = Integer.parseInt(statField(stat, 41));
            final int priority = Integer.parseInt(statField(stat, 40));
            return switch (policy) {
                case 0 -> new Scheduling("SCHED_OTHER", 0);
                case 1 -> new Scheduling("SCHED_FIFO", priority);
                case 2 -> new Scheduling("SCHED_RR", priority);
                case 3 -> new Scheduling("SCHED_BATCH", 0);
                case 5 -> new Scheduling("SCHED_IDLE", 0);
                default -> new Scheduling("policy " + policy, priority);
            };
        } catch (IOException | RuntimeException e) {
            return new Scheduling("unknown", 0);
        }
    }

    /**
     * The process's resource use now. Context switches are summed over its threads'
     * /proc/self/task/N/status, so a thread that has already exited no longer counts (where
     * getrusage() keeps it); CPU times are the whole process's, dead threads included
     * (utime, stime of /proc/self/stat); max_rss_kb is VmHWM, -1 if unknown.
     */
    static Usage usage() {
        long voluntary = 0;
        long involuntary = 0;
        final byte[] buffer = new byte[READ_BUFFER];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    final String status = read(task.resolve("status"), buffer);
                    voluntary += statusValue(status, "\nvoluntary_ctxt_switches:");
                    involuntary += statusValue(status, "\nnonvoluntary_ctxt_switches:");
                } catch (IOException ended) {
                    // the thread exited while we listed them
                }
            }
            final String[] stat = statFields(read(Path.of("/proc/self/stat")));
            final long user = Long.parseLong(stat[14 - 3]) * 1_000_000 / CLOCK_TICKS_PER_SECOND;
            final long system = Long.parseLong(stat[15 - 3]) * 1_000_000 / CLOCK_TICKS_PER_SECOND;
            return new Usage(voluntary, involuntary, user, system, peakRssKb());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The peak resident set of this program in kB (VmHWM): not ru_maxrss, which Linux carries
     * across execve(), as the C++ harness explains.
     */
    static long peakRssKb() {
        try {
            return statusValue(read(Path.of("/proc/self/status")), "\nVmHWM:");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** "Cpus_allowed_list" of a status file: the CPUs as "0-3,6". */
    static String cpusAllowed(Path status) throws IOException {
        final String text = read(status);
        final String key = "\nCpus_allowed_list:";
        final int at = text.indexOf(key);
        if (at < 0) {
            throw new IOException(status + " has no Cpus_allowed_list");
        }
        final int end = text.indexOf('\n', at + key.length());
        return text.substring(at + key.length(), end < 0 ? text.length() : end).strip();
    }

    /** Whether {@code cpu} is in a list such as "0-3,6". */
    static boolean cpuListContains(String list, int cpu) {
        for (String range : list.split(",")) {
            final String[] ends = range.strip().split("-");
            final int low = Integer.parseInt(ends[0]);
            final int high = ends.length > 1 ? Integer.parseInt(ends[1]) : low;
            if (cpu >= low && cpu <= high) {
                return true;
            }
        }
        return false;
    }

    /**
     * Field {@code number} (1-based, as proc(5) counts them) of a stat file. The command
     * name (field 2) may hold spaces and parentheses: the fields after it start behind the
     * last ')'.
     */
    static String statField(Path stat, int number) throws IOException {
        return statFields(read(stat))[number - 3];
    }

    /** The fields of a stat file from field 3 on: index i holds field i + 3. */
    private static String[] statFields(String text) {
        return text.substring(text.lastIndexOf(')') + 2).strip().split(" ");
    }

    /** A /proc file, whose size stat() reports as 0, read whole; its text is ASCII. */
    private static String read(Path path) throws IOException {
        return read(path, new byte[READ_BUFFER]);
    }

    /**
     * The same through {@code buffer}, which one probe reuses for every thread's status: a
     * probe of a JVM's twenty-odd threads then leaves a few kB of garbage, not hundreds.
     */
    private static String read(Path path, byte[] buffer) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            final int length = in.readNBytes(buffer, 0, buffer.length);
            if (length == buffer.length) { // longer than any status file today
                final byte[] rest = in.readAllBytes();
                return new String(buffer, StandardCharsets.ISO_8859_1)
                        + new String(rest, StandardCharsets.ISO_8859_1);
            }
            return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
        }
    }

    /** The number after {@code key} ("\nName:") of a status file, 0 if absent; kB dropped. */
    private static long statusValue(String status, String key) {
        final int at = status.indexOf(key);
        if (at < 0) {
            return 0;
        }
        int end = at + key.length();
        while (end < status.length() && status.charAt(end) != '\n') {
            end++;
        }
        return Long.parseLong(status.substring(at + key.length(), end).replace("kB", "").strip());
    }
}
