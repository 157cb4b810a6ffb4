package org.mwbench.harness;

/** A wrong reply the driver reported with {@link Measurement#fail}: the run fails with it. */
final class CallFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CallFailure(String message) {
        super(message);
    }
}
