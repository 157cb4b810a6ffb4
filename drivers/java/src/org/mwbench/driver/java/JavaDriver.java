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
        d.options.put("scenario", "obj-obj|obj-comp|comp-obj|comp-comp: client then server, a plain"
                + " object or a component of the Java component layer (CCMPerf's scenarios, as the"
                + " ccm driver's; collocated: obj-obj and comp-comp only; components: --servants 1)"
                + " (default obj-obj)");
        d.options.put("layer", "object|component: obj-obj or comp-comp, the component-layer"
                + " factor's two levels (with scenario, only alike)");
        d.options.put("glassfish_sockets", "blocking|nio: orb=glassfish only: blocking sockets,"
                + " a reader thread per connection (the default), or the ORB's own default, an NIO"
                + " selector that hands each message to a worker thread (about twice as slow here)");
        d.options.put("invocation", "static|dii|ami_callback|oneway: the client's invocation"
                + " (default static): the IDL compiler's stubs, the DII (a Request per call),"
                + " AMI callbacks (sendc_ and a ReplyHandler; JacORB only), or the oneway"
                + " ping_oneway (--operation ping; the sample is its delivery)");
        d.options.put("dispatch", "static|dsi: the server's skeletons, the IDL compiler's"
                + " (default) or the DSI (DynamicImplementation)");
        d.options.put("delivery", "0|1: also time each call's delivery, the client's send to"
                + " the servant's entry (named series delivery; one host; default 0)");
        d.optionValues.put("invocation", Invocation.MODES);
        d.optionValues.put("dispatch", Invocation.DISPATCHES);
        d.optionValues.put("delivery", List.of("0", "1"));
        d.openLoop.add("roundtrip");
        d.oneWayOptions.put("delivery", List.of("1"));
        d.oneWayOptions.put("invocation", List.of("oneway"));
        d.optionValues.put("orb", List.of("jacorb", "glassfish"));
        d.optionValues.put("glassfish_sockets", List.of("blocking", "nio"));
        d.optionValues.put("scenario", CcmScenario.NAMES);
        d.optionValues.put("layer", CcmScenario.LAYERS);
        d.optionValues.put("target", List.of("same", "random"));
        d.optionValues.put("verify", List.of("0", "1"));
        return d;
    }

    @Override
    public void serve(DriverOptions options, ServerContext context) throws Exception {
        OrbKind kind = orbKind(options);
        boolean verify = options.optionFlag("verify", false);
        int size = payloadBytes(options);
        CcmScenario scenario = CcmScenario.of(options);
        Invocation invocation = Invocation.of(options, kind, scenario);
        ComponentLayer components = null;
        try (OrbSession session = new OrbSession(kind, options.bindAddress(), nioSockets(options, kind));
             DeliveryBoard board = invocation.board()
                     ? DeliveryBoard.create(DeliveryBoard.pathFor(options.endpointFile())) : null) {
            ServantSet servants = new ServantSet(verify, size, board,
                    invocation.dsi ? session.orb() : null);
            recordOrb(session, context::recordConfig);
            context.recordConfig("scenario", scenario.name);
            String endpoint;
            if (scenario.componentServer) {
                components = new ComponentLayer(session);
                endpoint = components.publishReceiver(verify, size);
            } else {
                endpoint = Scenario.publish(session, servants, options.servants());
            }
            // Published while the POA manager still holds calls, dispatching only after,
            // so that with --option fault=hang (publishing never returns) no call is ever
            // answered. A call that comes early just waits.
            context.publishEndpoint(endpoint);
            session.dispatch();
            context.awaitStop();
            context.recordConfig("footprint", Footprint.measure());
            if (components != null) {
                components.remove();
            }
            session.stop();
            report(verify, components, servants);
        }
    }

    /** A server's verify=1 line, and its failure if any payload was wrong. */
    private static void report(boolean verify, ComponentLayer components, ServantSet servants) {
        long bad = components != null ? components.bad() : servants.badPayloads();
        if (verify) {
            System.err.println("mwbench-driver-java: "
                    + (components != null ? components.summary() : servants.callSummary()));
        }
        if (bad != 0) {
            throw new IllegalStateException(bad + " payloads failed verification");
        }
    }

    @Override
    public void measure(DriverOptions options, Measurement m) throws Exception {
        OrbKind kind = orbKind(options);
        boolean verify = options.optionFlag("verify", false);
        boolean random = options.option("target", "same").equals("random");
        int size = payloadBytes(options);
        CcmScenario scenario = CcmScenario.of(options);
        if (random && (scenario.componentClient || scenario.componentServer)) {
            throw new UsageException("--option target=random with --option scenario="
                    + scenario.name + ": a component scenario has one Receiver");
        }
        Invocation invocation = Invocation.of(options, kind, scenario);
        boolean collocated = options.role() == Role.COLLOCATED;
        // Collocated, the servants stamp the client's own board, in memory.
        DeliveryBoard local = invocation.board() && collocated ? DeliveryBoard.inProcess() : null;
        ComponentLayer components = null;
        try (OrbSession session = new OrbSession(kind, options.bindAddress(), nioSockets(options, kind))) {
            ServantSet servants = new ServantSet(verify, size, local,
                    invocation.dsi ? session.orb() : null);
            recordOrb(session, m::recordConfig);
            m.recordConfig("scenario", scenario.name);
            if (scenario.componentClient || scenario.componentServer) {
                components = new ComponentLayer(session);
            }
            RoundTrip[] targets = targets(options, m, session, servants, components, scenario);
            FirstCall.check(targets[0], options.timeoutSeconds());
            // comp-*: every call through the receptacle of a Caller connected to the target.
            Targets through = scenario.componentClient
                    ? new ReceptacleTargets(components.caller(targets[0])) : null;
            int[] sequence = random ? Targets.randomSequence(targets.length) : null;
            DeliveryBoard board = !invocation.board() || collocated ? local
                    : DeliveryBoard.open(DeliveryBoard.pathFor(options.endpointFile()));
            ClientRun client = new ClientRun(options, m, session.orb(), invocation, board);
            client.run(thread -> through != null ? through
                    : random ? Targets.random(targets, sequence, thread, options.threads())
                    : Targets.same(targets), size, verify, kind);
            m.recordConfig("warmup", client.warmup().toJson());
            // The pauses are placed on back-to-back samples: not an open loop's, which
            // overlap, nor oneway deliveries, which the driver timed.
            if (!m.openLoop() && !invocation.oneway()) {
                JvmPauses.record(m, System.getProperty(JVM_LOG_PROPERTY));
            }
            m.recordConfig("footprint", Footprint.measure());
            if (verify && collocated) {
                System.err.println("mwbench-driver-java: " + (scenario.componentServer
                        ? components.summary() : servants.callSummary()));
            }
        } catch (BAD_PARAM e) {
            throw new IllegalStateException((verify ? "the servant rejected a payload (verify=1): "
                    : "call failed: ") + FirstCall.describe(e), e);
        } catch (SystemException e) {
            throw new IllegalStateException("call failed: " + FirstCall.describe(e), e);
        }
    }

    /** The references the calls go to (or, for comp-*, the one the Caller connects to). */
    private static RoundTrip[] targets(DriverOptions options, Measurement m, OrbSession session,
            ServantSet servants, ComponentLayer components, CcmScenario scenario) throws Exception {
        if (options.role() == Role.COLLOCATED) {
            if (!scenario.componentServer) {
                RoundTrip[] targets = Scenario.collocated(session, servants, options.servants());
                session.dispatch();
                return targets;
            }
            components.publishReceiver(options.optionFlag("verify", false), payloadBytes(options));
            session.dispatch();
            return new RoundTrip[] {components.localFacet()};
        }
        if (scenario.componentServer) {
            return new RoundTrip[] {ComponentLayer.facet(session, m.readEndpoint())};
        }
        return Scenario.resolve(session, m.readEndpoint(), options.servants());
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

    /** --option glassfish_sockets=nio: the GlassFish ORB's NIO selector (OrbKind.properties). */
    private static boolean nioSockets(DriverOptions options, OrbKind kind) {
        String value = options.option("glassfish_sockets", null);
        if (value != null && kind != OrbKind.GLASSFISH) {
            throw new UsageException("--option glassfish_sockets=" + value
                    + ": only with --option orb=glassfish");
        }
        return "nio".equals(value);
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
