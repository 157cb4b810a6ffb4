package org.mwbench.harness;

/**
 * Wall time, resource use and CPU around one measured loop (or one serve()). Resource use
 * is process-wide, because a middleware may do part of a call's work on threads of its own.
 */
final class LoopProbe {
    private long startNs;
    private long endNs;
    private int cpuFirst = -1;
    private int cpuLast = -1;
    private ProcFiles.Usage before;
    private ProcFiles.Usage after;

    void start() {
        cpuFirst = ProcFiles.currentCpu();
        before = ProcFiles.usage();
        startNs = System.nanoTime();
    }

    void stop() {
        endNs = System.nanoTime();
        after = ProcFiles.usage();
        cpuLast = ProcFiles.currentCpu();
    }

    long startNs() {
        return startNs;
    }

    long endNs() {
        return endNs;
    }

    int cpuFirst() {
        return cpuFirst;
    }

    int cpuLast() {
        return cpuLast;
    }

    /** Switches and CPU time during the loop; max_rss_kb is the process's peak. */
    ProcFiles.Usage usage() {
        if (before == null || after == null) {
            return new ProcFiles.Usage(0, 0, 0, 0, ProcFiles.peakRssKb());
        }
        return new ProcFiles.Usage(
                Math.max(0, after.voluntarySwitches() - before.voluntarySwitches()),
                Math.max(0, after.involuntarySwitches() - before.involuntarySwitches()),
                after.userUs() - before.userUs(),
                after.systemUs() - before.systemUs(),
                after.maxRssKb());
    }
}
