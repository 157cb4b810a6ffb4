package org.mwbench.harness;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** What a server sees of the harness while it serves. */
public final class ServerContext {
    private final DriverOptions options;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final JsonObject config = new JsonObject();

    ServerContext(DriverOptions options) {
        this.options = options;
    }

    /**
     * Writes {@code endpoint} as one line to --endpoint-file, through PATH.tmp and a rename,
     * so that a client never reads half a file. Call it once the server accepts calls. With
     * --option fault=crash the process aborts right after (SIGABRT); with fault=hang this
     * never returns, and SIGTERM no longer ends the process.
     */
    public void publishEndpoint(String endpoint) throws IOException {
        EndpointFile.publish(Path.of(options.endpointFile()), endpoint);

        // Injected faults, for tests of the orchestrator (contract section 2).
        final String fault = options.option("fault", "");
        if (fault.equals("crash")) {
            abort();
        }
        if (fault.equals("hang")) {
            for (;;) {
                try {
                    Thread.sleep(3_600_000L);
                } catch (InterruptedException ignored) {
                    // hang means hang: nothing ends this but SIGKILL
                }
            }
        }
    }

    /**
     * Returns once SIGTERM or SIGINT has arrived (at once if one already has): then stop
     * serving, shut the middleware down and return from serve().
     */
    public void awaitStop() throws InterruptedException {
        stop.await();
    }

    /** Whether SIGTERM or SIGINT has arrived. */
    public boolean stopRequested() {
        return stop.getCount() == 0;
    }

    /**
     * Records how the middleware was configured (an ORB's properties), written to the
     * server's result header as {@code middleware_config.<key>}. {@code jsonValue} is a
     * String, Number, Boolean, Map, List or Gson JsonElement; a later call replaces a key.
     */
    public synchronized void recordConfig(String key, Object jsonValue) {
        config.add(key, Json.tree(jsonValue));
    }

    /**
     * Dies of SIGABRT, as std::abort() in the C++ harness: the orchestrator then reports a
     * server killed by a signal. Java cannot raise a signal it has no handler for, so kill(1)
     * sends it; status 134 (128 + SIGABRT) only if the signal did not end the process.
     */
    private static void abort() throws IOException {
        final String pid = Long.toString(ProcessHandle.current().pid());
        new ProcessBuilder("kill", "-ABRT", pid).inheritIO().start();
        try {
            Thread.sleep(10_000);
        } catch (InterruptedException ignored) {
            // fall through to the exit
        }
        Runtime.getRuntime().halt(134);
    }

    /** The harness's, on SIGTERM or SIGINT. */
    void requestStop() {
        stop.countDown();
    }

    synchronized JsonObject middlewareConfig() {
        return config.deepCopy();
    }
}
