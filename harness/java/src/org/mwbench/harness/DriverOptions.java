package org.mwbench.harness;

import java.util.List;
import java.util.Map;

/**
 * The contract arguments of one driver process (docs/driver-contract.md section 2), parsed
 * and checked against the driver's {@link Description} before any driver code runs, so a
 * driver can trust every field.
 *
 * @param role            --role
 * @param operation       --operation, one of the description's operations
 * @param transport       --transport, one of the mode's transports ("inproc" collocated)
 * @param payloadBytes    --payload-bytes (0 for an operation without payload)
 * @param samples         --samples: samples to keep, per client thread
 * @param warmup          --warmup: calls made and discarded first, per client thread
 * @param batch           --batch: calls per sample; null for "auto"
 * @param endpointFile    --endpoint-file (the first one); null for a collocated process
 * @param endpointFiles   every --endpoint-file, in order (several only for a fan-out client)
 * @param output          --output: the result file; null to write none
 * @param cpu             --cpu; null when unpinned
 * @param priority        --priority: SCHED_FIFO 1-99, or 0 for the default policy
 * @param threads         --threads: client threads
 * @param servants        --servants: servants the server registers
 * @param timeoutSeconds  --timeout: how long a client waits for its server
 * @param bindAddress     --bind: the IPv4 literal every socket of the process listens on
 * @param subscribers     --subscribers (operation "fanout" only; 1 otherwise)
 * @param firstSubscriber --first-subscriber (operation "fanout", server only; 0 otherwise)
 * @param options         every --option KEY=VALUE, sorted by key
 * @param load            --load: closed (the default), or an open loop's schedule
 * @param loadSeed        --load-seed (the Poisson schedule's seed, unsigned); null if not given
 */
public record DriverOptions(
        Role role,
        String operation,
        String transport,
        long payloadBytes,
        long samples,
        long warmup,
        Long batch,
        String endpointFile,
        List<String> endpointFiles,
        String output,
        Integer cpu,
        int priority,
        int threads,
        int servants,
        double timeoutSeconds,
        String bindAddress,
        int subscribers,
        int firstSubscriber,
        Map<String, String> options,
        Load load,
        Long loadSeed) {

    /** "remote" (server, client) or "collocated". */
    public String mode() {
        return role.mode();
    }

    /** Whether --batch auto was given: the harness picks the batch size. */
    public boolean batchAuto() {
        return batch == null;
    }

    /** The value of --option {@code key}, or {@code fallback} when it was not given. */
    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }

    /** A 0/1 option; throws {@link UsageException} naming the key for any other value. */
    public boolean optionFlag(String key, boolean fallback) {
        final String value = options.get(key);
        if (value == null) {
            return fallback;
        }
        if (value.equals("1") || value.equals("0")) {
            return value.equals("1");
        }
        throw new UsageException("--option " + key + "=" + value + ": must be 0 or 1");
    }
}
