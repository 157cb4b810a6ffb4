package org.mwbench.driver.java;

import java.util.List;
import org.mwbench.harness.DriverOptions;
import org.mwbench.harness.Role;
import org.mwbench.harness.UsageException;

/**
 * How a client invokes and a server dispatches (Open CORBA Benchmarking's mechanisms):
 * --option invocation, --option dispatch and --option delivery, with the combinations the
 * driver refuses (exit 2, named). ami_poller is not offered: JacORB 3.9's IDL compiler has
 * no polling model ("Sorry, the polling model is not yet implemented"), and the GlassFish
 * ORB has no AMI at all (no ReplyHandler in its org.omg.Messaging, no sendc_ stubs).
 */
final class Invocation {
    static final List<String> MODES = List.of("static", "dii", "ami_callback", "oneway");
    static final List<String> DISPATCHES = List.of("static", "dsi");

    final String mode;
    final boolean dsi;
    /** The client times each call's delivery, and the servants stamp the board. */
    final boolean delivery;

    private Invocation(String mode, boolean dsi, boolean delivery) {
        this.mode = mode;
        this.dsi = dsi;
        this.delivery = delivery;
    }

    boolean oneway() {
        return mode.equals("oneway");
    }

    /** Whether the servants stamp a delivery board: delivery=1, or every oneway call. */
    boolean board() {
        return delivery || oneway();
    }

    /** The options, checked against the ORB, the scenario and the arguments. */
    static Invocation of(DriverOptions o, OrbKind kind, CcmScenario scenario) {
        final String mode = o.option("invocation", "static");
        final String dispatch = o.option("dispatch", "static");
        final Invocation chosen = new Invocation(mode, dispatch.equals("dsi"),
                o.optionFlag("delivery", false));
        final String given = "--option invocation=" + mode;
        // A server takes the client's --options too: a GlassFish server answers AMI calls.
        if (mode.equals("ami_callback") && kind == OrbKind.GLASSFISH && o.role() != Role.SERVER) {
            throw new UsageException(given + " with --option orb=glassfish: the GlassFish ORB"
                    + " has no AMI (no ReplyHandler, no sendc_ stubs); JacORB has it");
        }
        if (chosen.dsi && kind == OrbKind.GLASSFISH && o.role() == Role.COLLOCATED) {
            throw new UsageException("--option dispatch=dsi with --option orb=glassfish,"
                    + " collocated: the GlassFish ORB's in-process call of a DSI servant never"
                    + " ends (its _servant_preinvoke offers the stub no servant, and the stub"
                    + " asks again); run it remote");
        }
        final boolean plain = mode.equals("static") && !chosen.dsi && !chosen.board();
        if (!plain && (scenario.componentClient || scenario.componentServer)) {
            throw new UsageException(given + " --option dispatch=" + dispatch
                    + " --option delivery=" + (chosen.delivery ? 1 : 0) + " with --option scenario="
                    + scenario.name + ": the invocation modes are the obj-obj scenario's");
        }
        if (chosen.oneway() && List.of("octets_out", "octets_inout").contains(o.operation())) {
            throw new UsageException("invocation oneway cannot carry " + o.operation()
                    + ": a oneway call has no reply");
        }
        if (chosen.oneway() && !o.operation().equals("ping")) {
            throw new UsageException(given + " with --operation " + o.operation()
                    + ": the oneway operation is ping_oneway, which carries nothing"
                    + " (use --operation ping)");
        }
        if (chosen.oneway() && chosen.delivery) {
            throw new UsageException("--option delivery=1 with " + given
                    + ": a oneway call's sample is its delivery already");
        }
        if (o.load().open() && !mode.equals("static") && !mode.equals("ami_callback")) {
            throw new UsageException(given + " with --load " + o.load() + ": the open loop sends"
                    + " through AMI callbacks (JacORB) or deferred DII requests (GlassFish)");
        }
        if (o.load().open() && chosen.delivery) {
            throw new UsageException("--option delivery=1 with --load " + o.load()
                    + ": the board holds one entry at a time, and an open loop has many calls"
                    + " in flight");
        }
        if (chosen.board() && o.role() != Role.SERVER) {
            if (o.threads() != 1) {
                throw new UsageException("--threads " + o.threads() + " with " + (chosen.oneway()
                        ? given : "--option delivery=1") + ": the board holds one entry at a time"
                        + " (use --threads 1)");
            }
            if (o.batch() == null || o.batch() != 1) {
                throw new UsageException("--batch " + (o.batch() == null ? "auto" : o.batch())
                        + " with " + (chosen.oneway() ? given : "--option delivery=1")
                        + ": each call's delivery is one sample (use --batch 1)");
            }
        }
        return chosen;
    }
}
