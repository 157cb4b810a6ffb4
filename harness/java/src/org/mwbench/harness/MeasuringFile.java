package org.mwbench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * MWBENCH_MEASURING_FILE: a file the harness creates once the first sample is kept, so that
 * a test can signal a client that is measuring (docs/driver-contract.md section 2).
 */
final class MeasuringFile {
    private final String path; // null: not asked for
    private final AtomicBoolean announced = new AtomicBoolean();

    private MeasuringFile(String path) {
        this.path = path;
    }

    static MeasuringFile fromEnvironment() {
        return new MeasuringFile(System.getenv("MWBENCH_MEASURING_FILE"));
    }

    /** Creates the file, the first time only. */
    void announce() {
        if (path == null || announced.getAndSet(true)) {
            return;
        }
        try {
            Files.newOutputStream(Path.of(path)).close();
        } catch (IOException ignored) {
            // a test aid; the test that asked for it notices its absence
        }
    }
}
