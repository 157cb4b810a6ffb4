package org.mwbench.driver.java;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * One ORB for the life of a driver process, configured from nothing but the
 * driver's settings (OrbKind.properties), and the POA of its servants.
 *
 * <p>Servants live in a child POA of the root, "RoundTrip", with the policies
 * USER_ID and RETAIN: each request goes through its active object map,
 * searched by the ids "0" .. "N-1", as in the omniorb driver's omniINSPOA.
 * The POA is made on the root POA's manager, which holds calls until
 * {@link #dispatch()}.
 */
final class OrbSession implements AutoCloseable {
    final OrbKind kind;
    final Map<String, String> properties;
    private final ORB orb;
    private POA poa;

    OrbSession(OrbKind kind, String bindAddress, boolean nioSockets) {
        this.kind = kind;
        this.properties = kind.properties(bindAddress, nioSockets);
        this.orb = kind.init(properties);
    }

    ORB orb() {
        return orb;
    }

    /**
     * Activates `servants.add()` --servants times with the ids "0" .. "N-1"
     * and returns their references, in order. Calls wait until dispatch().
     */
    org.omg.CORBA.Object[] activate(ServantSet servants, int count) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        Policy[] policies = {root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID)};
        poa = root.create_POA("RoundTrip", root.the_POAManager(), policies);
        org.omg.CORBA.Object[] references = new org.omg.CORBA.Object[count];
        for (int i = 0; i < count; i++) {
            byte[] id = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
            poa.activate_object_with_id(id, servants.add());
            references[i] = poa.id_to_reference(id);
        }
        return references;
    }

    /** Activates the POA manager: waiting and later calls reach the servants. */
    void dispatch() throws Exception {
        // The root POA's manager: the servants' POA's, and a component container's.
        POAHelper.narrow(orb.resolve_initial_references("RootPOA")).the_POAManager().activate();
    }

    /** Server: serves until stop(); returns at once if stop() ran before. */
    void run() {
        orb.run();
    }

    /**
     * Makes run() return; from any thread (the harness's signal thread), at
     * any time: shutdown(false) does not wait for a call in progress.
     */
    void stop() {
        try {
            orb.shutdown(false);
        } catch (org.omg.CORBA.BAD_INV_ORDER e) {
            // Shut down or destroyed already: nothing to stop.
        }
    }

    @Override
    public void close() {
        try {
            orb.destroy();
        } catch (org.omg.CORBA.SystemException e) {
            // Destroyed already: nothing left to stop.
        }
    }
}
