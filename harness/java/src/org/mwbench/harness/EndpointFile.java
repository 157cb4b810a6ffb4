package org.mwbench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.BooleanSupplier;

/** The endpoint file (docs/driver-contract.md section 3): one line, published whole. */
final class EndpointFile {
    private EndpointFile() {
    }

    /** Writes {@code endpoint} to PATH.tmp and renames it to PATH: no reader sees half. */
    static void publish(Path path, String endpoint) throws IOException {
        final Path tmp = Path.of(path + ".tmp");
        Files.writeString(tmp, endpoint + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Waits for the file until {@code timeoutSeconds} have passed or {@code stopped} says so,
     * and returns its first line. IOException naming the path on timeout, stop or an empty file.
     */
    static String read(Path path, double timeoutSeconds, BooleanSupplier stopped)
            throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
        for (;;) {
            try {
                final String text = Files.readString(path, StandardCharsets.UTF_8);
                final String line = text.lines().findFirst().orElse("").stripTrailing();
                if (line.isEmpty()) {
                    throw new IOException("endpoint file '" + path + "' is empty");
                }
                return line;
            } catch (NoSuchFileException absent) {
                // not published yet
            }
            if (stopped.getAsBoolean()) {
                throw new IOException("stopped while waiting for endpoint file '" + path + "'");
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IOException("no endpoint file '" + path + "' after " + timeoutSeconds
                        + " s (--timeout): is the server running?");
            }
            Thread.sleep(5);
        }
    }
}
