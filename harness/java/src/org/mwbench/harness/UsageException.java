package org.mwbench.harness;

/**
 * A bad argument or an unsupported combination: {@link DriverMain} prints the message as
 * {@code mwbench-driver-<name>: error: <message>} and exits with status 2. Drivers throw it
 * for bad values of their own options; the message names the argument and what is allowed.
 */
public class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
