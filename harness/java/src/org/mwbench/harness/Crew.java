package org.mwbench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The client threads of one multi-threaded measurement, as the C++ harness's crew. The
 * threads are started first and held at a gate, so that a thread that cannot be started
 * never leaves the others waiting at a barrier for it. After that, every thread passes every
 * {@link #sync}, failed or not: a failure skips the remaining steps of all threads, never a
 * barrier, so no failure can deadlock the crew.
 */
final class Crew {
    interface Step {
        void run() throws Exception;
    }

    private final Runnable onFailure;
    private volatile boolean failed;
    private int size; // guarded by this, as everything below
    private boolean gateOpen;
    private int arrived;
    private long generation;
    private Throwable error;

    /** {@code onFailure} runs once, on the thread whose step failed first. */
    Crew(int size, Runnable onFailure) {
        this.size = size;
        this.onFailure = onFailure;
    }

    /**
     * Runs body(0) .. body(size - 1) on threads of their own (which inherit this thread's
     * CPU affinity and scheduling policy), joins them, then rethrows the first failure.
     */
    void run(IntConsumer body) throws Exception {
        final int wanted = size;
        final List<Thread> threads = new ArrayList<>(wanted);
        for (int t = 0; t < wanted; t++) {
            final int index = t;
            final Thread thread = new Thread(() -> {
                awaitGate();
                body.accept(index);
            }, "mwbench-client-" + (t + 1));
            try {
                thread.start();
            } catch (OutOfMemoryError e) {
                fail(new IllegalStateException("cannot start client thread " + (t + 1) + " of "
                        + wanted + ": " + e.getMessage()));
                break;
            }
            threads.add(thread);
        }
        synchronized (this) {
            size = threads.size(); // the barriers count the threads that exist
            gateOpen = true;
            notifyAll();
        }
        for (Thread thread : threads) {
            joinUninterruptibly(thread);
        }
        final Throwable first;
        synchronized (this) {
            first = error;
        }
        if (first instanceof Exception exception) {
            throw exception;
        }
        if (first instanceof Error fatal) {
            throw fatal;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }

    /** Runs {@code step} unless a step of any thread has failed; what it throws is a failure. */
    void step(Step step) {
        if (failed) {
            return;
        }
        try {
            step.run();
        } catch (Throwable e) {
            fail(e);
        }
    }

    /** Waits until every thread has arrived; the last runs {@code last} (if any) first. */
    synchronized void sync(Runnable last) {
        final long mine = generation;
        if (++arrived == size) {
            if (last != null) {
                last.run();
            }
            arrived = 0;
            generation++;
            notifyAll();
            return;
        }
        boolean interrupted = false;
        while (generation == mine) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    boolean failed() {
        return failed;
    }

    private void fail(Throwable e) {
        final boolean first;
        synchronized (this) {
            first = error == null;
            if (first) {
                error = e;
            }
        }
        failed = true;
        if (first) {
            onFailure.run();
        }
    }

    private synchronized void awaitGate() {
        while (!gateOpen) {
            try {
                wait();
            } catch (InterruptedException ignored) {
                // the gate opens once every thread is started; nothing interrupts it on purpose
            }
        }
    }

    private static void joinUninterruptibly(Thread thread) {
        for (;;) {
            try {
                thread.join();
                return;
            } catch (InterruptedException ignored) {
                // keep waiting: the thread ends once its loop does
            }
        }
    }
}
