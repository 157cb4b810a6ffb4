package org.mwbench.driver.java;

import Test.RoundTrip;
import Test.RoundTripHelper;
import org.omg.CORBA.ORB;

/**
 * What the server publishes and where the client gets its Test::RoundTrip
 * references: the one place where the scenarios of a component layer
 * (obj-comp, comp-obj, comp-comp, as drivers/ccm has them) plug in. This is
 * obj-obj, a plain client object calling plain servants.
 *
 * <p>The server publishes a corbaloc base, as the omniorb driver does:
 * "corbaloc::1.2@ADDRESS:PORT/" (the address and port of the ORB's listener,
 * from servant 0's IOR; "1.2@" because corbaloc otherwise means GIOP 1.0),
 * and servant i is that base followed by "i". Either ORB is told to answer
 * the key "i" for servant i (OrbKind.registerKey), so that any client, the
 * omniorb driver's included, reaches the servants of a Java server, and this
 * client the omniorb driver's. The client makes its references locally,
 * without a call per reference; collocated, it takes the servants' own
 * references, which each ORB calls without a socket.
 */
final class Scenario {
    private Scenario() {}

    /** Server: activates the servants and returns the endpoint to publish. */
    static String publish(OrbSession session, ServantSet servants, int count) throws Exception {
        org.omg.CORBA.Object[] references = session.activate(servants, count);
        ORB orb = session.orb();
        for (int i = 0; i < count; i++) {
            session.kind.registerKey(orb, Integer.toString(i), references[i]);
        }
        IorAddress address = IorAddress.of(orb.object_to_string(references[0]));
        return "corbaloc::1.2@" + address.host + ":" + address.port + "/";
    }

    /** Remote client: references to the servants behind a published corbaloc base. */
    static RoundTrip[] resolve(OrbSession session, String base, int count) {
        if (!base.startsWith("corbaloc:") || !base.endsWith("/")) {
            throw new IllegalArgumentException("the endpoint '" + base
                    + "' is not a corbaloc base (corbaloc::1.2@ADDRESS:PORT/)");
        }
        RoundTrip[] targets = new RoundTrip[count];
        for (int i = 0; i < count; i++) {
            // Unchecked: a checked narrow would ask each servant its type, a
            // remote call per reference; servant 0 is asked once (FirstCall).
            targets[i] = RoundTripHelper.unchecked_narrow(
                    session.orb().string_to_object(base + i));
        }
        return targets;
    }

    /** Collocated: the servants activated in this process, called through their references. */
    static RoundTrip[] collocated(OrbSession session, ServantSet servants, int count)
            throws Exception {
        org.omg.CORBA.Object[] references = session.activate(servants, count);
        RoundTrip[] targets = new RoundTrip[count];
        for (int i = 0; i < count; i++) {
            targets[i] = RoundTripHelper.unchecked_narrow(references[i]);
        }
        return targets;
    }
}
