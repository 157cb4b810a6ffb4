package org.mwbench.driver.java;

import Test.RoundTrip;
import java.util.List;
import java.util.Map;
import org.mwbench.harness.Description;
import org.mwbench.harness.Driver;
import org.mwbench.harness.DriverMain;
import org.mwbench.harness.DriverOptions;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.Role;
import org.mwbench.harness.ServerContext;
import org.mwbench.harness.UsageException;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.SystemException;

/**
 * mwbench-driver-java: Test::RoundTrip (drivers/omniorb/RoundTrip.idl) on a
 * Java ORB, JacORB or the GlassFish CORBA ORB (--option orb), remote (IIOP
 * over TCP) and collocated (one process, one ORB, the call through the
 * reference and the POA).
 *
 * <p>This class maps the contract onto the ORB: options to ORB settings,
 * roles to what the ORB does. The ORB lives in OrbSession (and OrbKind, what
 * differs between the two), the endpoint and the references in Scenario, the
 * servants in RoundTripServant, the calls in Calls; what the JVM does around
 * the loop in JitWarmup, JvmPauses and Footprint.
 */
public final class JavaDriver implements Driver {
    /** The JVM's nameless safepoint log, which the launcher opens (mwbench-driver-java.in). */
    private static final String JVM_LOG_PROPERTY = "mwbench.jvm.log";
    // A fixed heap of 256 MiB holds a payload several times (request, reply, marshalling).
    private static final long MAX_PAYLOAD_BYTES = 16L << 20;

    public static void main(String[] args) {
        DriverMain.main(args, new JavaDriver());
    }

    @Override
    public Description describe() {
        Description d = new Description("java", "JacORB or GlassFish CORBA ORB (--option orb)",
                orbVersions());
        d.operations.putAll(Map.of("roundtrip", false, "ping", false, "octets", true,
                "octets_out", true, "octets_inout", true, "records", true));
        d.modes.put("remote", List.of("tcp"));
        d.modes.put("collocated", List.of("inproc"));
        d.options.put("orb", "jacorb|glassfish: the ORB (" + d.middlewareVersion
                + "), JacORB by default; each runs with its own jars only");
        d.options.put("target", "same|random: every call to servant 0 (the default), or each to a"
                + " servant drawn uniformly from the --servants (a sequence drawn before measuring)");
        d.options.put("verify", "0|1: check every payload and reply on both ends, and count each"
                + " servant's calls; for tests, not for measuring (default 0)");
        d.optionValues.put("orb", List.of("jacorb", "glassfish"));
        d.optionValues.put("target", List.of("same", "random"));
        d.optionValues.put("verify", List.of("0", "1"));
        return d;
    }

    @Override
    public void serve(DriverOptions options, ServerContext context) throws Exception {
        OrbKind kind = orbKind(options);
        boolean verify = options.optionFlag("verify", false);
        int size = payloadBytes(options);
        ServantSet servants = new ServantSet(verify, size);
        try (OrbSession session = new OrbSession(kind, options.bindAddress())) {
            recordOrb(session, context::recordConfig);
            String endpoint = Scenario.publish(session, servants, options.servants());
            // Published while the POA manager still holds calls, dispatching only after,
            // so that with --option fault=hang (publishing never returns) no call is ever
            // answered. A call that comes early just waits.
            context.publishEndpoint(endpoint);
            session.dispatch();
            context.awaitStop();
            context.recordConfig("footprint", Footprint.measure());
            session.stop();
        }
        if (verify) {
            System.err.println("mwbench-driver-java: " + servants.callSummary());
        }
        if (servants.badPayloads() != 0) {
            throw new IllegalStateException(servants.badPayloads()
                    + " payloads failed verification");
        }
    }

    @Override
    public void measure(DriverOptions options, Measurement m) throws Exception {
        OrbKind kind = orbKind(options);
        boolean verify = options.optionFlag("verify", false);
        boolean random = options.option("target", "same").equals("random");
        int size = payloadBytes(options);
        ServantSet servants = new ServantSet(verify, size);
        try (OrbSession session = new OrbSession(kind, options.bindAddress())) {
            recordOrb(session, m::recordConfig);
            RoundTrip[] targets;
            if (options.role() == Role.COLLOCATED) {
                targets = Scenario.collocated(session, servants, options.servants());
                session.dispatch();
            } else {
                targets = Scenario.resolve(session, m.readEndpoint(), options.servants());
            }
            FirstCall.check(targets[0], options.timeoutSeconds());
            int[] sequence = random ? Targets.randomSequence(targets.length) : null;
            JitWarmup warmup = new JitWarmup(options.threads(), m::stopRequested);
            m.runThreads(thread -> {
                Targets pick = random
                        ? Targets.random(targets, sequence, thread, options.threads())
                        : Targets.same(targets);
                Measurement.Call call =
                        Calls.make(options.operation(), pick, size, verify, m);
                warmup.run(thread, call);
                return call;
            });
            m.recordConfig("warmup", warmup.toJson());
            JvmPauses.record(m, System.getProperty(JVM_LOG_PROPERTY));
            m.recordConfig("footprint", Footprint.measure());
        } catch (BAD_PARAM e) {
            throw new IllegalStateException((verify ? "the servant rejected a payload (verify=1): "
                    : "call failed: ") + FirstCall.describe(e), e);
        } catch (SystemException e) {
            throw new IllegalStateException("call failed: " + FirstCall.describe(e), e);
        }
        if (verify && options.role() == Role.COLLOCATED) {
            System.err.println("mwbench-driver-java: " + servants.callSummary());
        }
    }

    /** middleware_config: the ORB, its version, its ORB.init properties, the JVM. */
    private static void recordOrb(OrbSession session, ConfigSink sink) {
        sink.record("orb", session.kind.optionValue);
        sink.record("orb_version", session.kind.version());
        sink.record("orb_properties", session.properties);
        sink.record("jvm", JvmDescription.describe());
    }

    /** recordConfig of a ServerContext or a Measurement. */
    @FunctionalInterface
    private interface ConfigSink {
        void record(String key, Object jsonValue);
    }

    private static OrbKind orbKind(DriverOptions options) {
        String value = options.option("orb", "jacorb");
        for (OrbKind kind : OrbKind.values()) {
            if (kind.optionValue.equals(value)) {
                return kind;
            }
        }
        throw new UsageException("--option orb=" + value + ": must be jacorb or glassfish");
    }

    private static int payloadBytes(DriverOptions options) {
        if (options.payloadBytes() > MAX_PAYLOAD_BYTES) {
            throw new UsageException("--payload-bytes " + options.payloadBytes() + ": at most "
                    + MAX_PAYLOAD_BYTES + " (the JVM's fixed heap of 256 MiB holds a payload"
                    + " several times)");
        }
        return (int) options.payloadBytes();
    }

    /** "JacORB 3.9, GlassFish CORBA ORB 4.2.5", from the versions the build gave the launcher. */
    private static String orbVersions() {
        String given = System.getProperty("mwbench.orb.versions", "");
        StringBuilder text = new StringBuilder();
        for (OrbKind kind : OrbKind.values()) {
            String version = "unknown";
            for (String pair : given.split(",")) {
                if (pair.startsWith(kind.optionValue + "=")) {
                    version = pair.substring(kind.optionValue.length() + 1);
                }
            }
            text.append(text.length() == 0 ? "" : ", ").append(kind.middleware).append(' ')
                    .append(version);
        }
        return text.toString();
    }
}
