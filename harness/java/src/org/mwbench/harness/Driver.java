package org.mwbench.harness;

/**
 * What a Java driver implements; {@link DriverMain} does the rest of
 * docs/driver-contract.md (arguments, --describe, placement, signals, faults,
 * the endpoint file and the result file). A driver's main is one line:
 *
 * <pre>
 * public static void main(String[] args) { DriverMain.main(args, new MyDriver()); }
 * </pre>
 */
public interface Driver {
    /**
     * Must not depend on arguments: --describe calls it without any. It runs before --cpu
     * pins the process, so it starts no thread (nor initialises an ORB).
     */
    Description describe();

    /**
     * Role server: set up, {@link ServerContext#publishEndpoint publish the endpoint}, serve
     * until {@link ServerContext#awaitStop()} returns, shut down, return. Throw
     * {@link UsageException} for a bad option value (exit 2), anything else to fail (exit 1).
     */
    void serve(DriverOptions options, ServerContext context) throws Exception;

    /**
     * Role client or collocated: set up, then call {@link Measurement#run} (one thread) or
     * {@link Measurement#runThreads} (--threads N) once.
     */
    void measure(DriverOptions options, Measurement measurement) throws Exception;
}
