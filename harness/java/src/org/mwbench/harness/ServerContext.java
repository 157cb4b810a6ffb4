package org.mwbench.harness;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

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
        final Path path = Path.of(options.endpointFile());
        final Path tmp = Path.of(options.endpointFile() + ".tmp");
        Files.writeString(tmp, endpoint + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        // Injected faults, for tests of the orchestrator (contract section 2).
        final String fault = options.option("fault", "");
        if (fault.equals("crash")) {
            Signal.raise(new Signal("ABRT"));
            Runtime.getRuntime().halt(134); // only if SIGABRT did not end the process
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

    /** The harness's, on SIGTERM or SIGINT. */
    void requestStop() {
        stop.countDown();
    }

    synchronized JsonObject middlewareConfig() {
        return config.deepCopy();
    }
}
