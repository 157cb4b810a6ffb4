package org.mwbench.driver.java;

import org.mwbench.harness.DriverOptions;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.Measurement.Call;
import org.omg.CORBA.ORB;

/**
 * A client's measured loop for its invocation mode: the calls of each thread (static stubs,
 * the DII, AMI callbacks; delivery=1 times each call's delivery too), the oneway calls whose
 * samples are their deliveries, or the open loop (--load): AMI callbacks on JacORB, deferred
 * DII requests on the GlassFish ORB, which has no AMI.
 */
final class ClientRun {
    private final DriverOptions options;
    private final Measurement m;
    private final ORB orb;
    private final Invocation invocation;
    private final DeliveryBoard board; // null unless invocation.board()
    private final JitWarmup warmup;

    ClientRun(DriverOptions options, Measurement m, ORB orb, Invocation invocation,
            DeliveryBoard board) {
        this.options = options;
        this.m = m;
        this.orb = orb;
        this.invocation = invocation;
        this.board = board;
        this.warmup = new JitWarmup(options.threads(), m::stopRequested);
    }

    JitWarmup warmup() {
        return warmup;
    }

    /** Measures; {@code picks.targets(thread)} gives each thread's Targets. */
    void run(PickFactory picks, int size, boolean verify, OrbKind kind) throws Exception {
        if (invocation.oneway()) {
            OnewayCalls.measure(m, picks.targets(0), board, warmup, options.timeoutSeconds());
        } else if (m.openLoop()) {
            openLoop(picks.targets(0), kind);
        } else {
            m.runThreads(thread -> {
                Call call = call(picks.targets(thread), size, verify);
                DeliveryTiming timed = invocation.delivery
                        ? new DeliveryTiming(call, board, m) : null;
                warmup.run(thread, timed != null ? timed : call);
                if (timed != null) {
                    timed.restart();
                }
                return timed != null ? timed : call;
            });
        }
    }

    /** Each thread's Targets. */
    @FunctionalInterface
    interface PickFactory {
        Targets targets(int thread);
    }

    private Call call(Targets pick, int size, boolean verify) throws Exception {
        switch (invocation.mode) {
            case "dii":
                return DiiCalls.make(options.operation(), pick, size, verify, m, orb);
            case "ami_callback": {
                AmiReplies replies = new AmiReplies(m);
                return AmiCalls.make(options.operation(), pick, size, verify, m, replies,
                        AmiCalls.activate(orb, replies));
            }
            default:
                return Calls.make(options.operation(), pick, size, verify, m);
        }
    }

    /**
     * The open loop: operation roundtrip, whose echoed send_time carries the call's number to
     * whichever thread receives the reply. The JIT warms up on the same path, closed.
     */
    private void openLoop(Targets pick, OrbKind kind) throws Exception {
        if (kind == OrbKind.JACORB) {
            AmiReplies replies = new AmiReplies(m);
            Test.AMI_RoundTripHandler handler = AmiCalls.activate(orb, replies);
            warmup.run(0, AmiCalls.make("roundtrip", pick, 0, false, m, replies, handler));
            replies.routeToHarness();
            m.runOpen(call -> AmiCalls.stub(pick).sendc_test_method(handler, call));
        } else {
            warmup.run(0, DiiCalls.make("roundtrip", pick, 0, false, m, orb));
            DeferredReplies.run(m, pick, orb);
        }
    }
}
