package org.mwbench.driver.java;

import Test.RoundTrip;
import org.mwccm.Container;
import org.mwccm.ccmperf.CallerExecutor;
import org.mwccm.ccmperf.CcmPerfAssembly;
import org.mwccm.ccmperf.ReceiverExecutor;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POAHelper;

/**
 * The component side of a scenario (CcmScenario): CcmPerf's components of the
 * Java component layer (components/java, ccmperf.jar) in one container of
 * this process, on the driver's ORB.
 *
 * <p>Server: a Receiver configured by name (verify, payload_bytes), whose
 * facet `control` is the servant of the obj-* scenarios as a facet executor;
 * it publishes "component=IOR", the endpoint of mwbench-driver-ccm's component
 * server, so either driver's client reaches either's server. Client of *-comp:
 * the facet found with provide_control() on that component. Client of comp-*:
 * a Caller whose receptacle `peer` is connected to the target; each call goes
 * through it (ReceptacleTargets).
 */
final class ComponentLayer {
    private static final String KEY = "component=";
    private final ORB orb;
    private final Container container;
    private final CcmPerfAssembly assembly;
    private ReceiverExecutor receiver;

    ComponentLayer(OrbSession session) throws Exception {
        orb = session.orb();
        container = new Container(orb, POAHelper.narrow(orb.resolve_initial_references("RootPOA")),
                "ccmperf");
        assembly = new CcmPerfAssembly(orb, container);
    }

    /** A Receiver, assembled before the POA manager dispatches; returns its endpoint. */
    String publishReceiver(boolean verify, int size) throws Exception {
        CcmPerf.Receiver component = assembly.createReceiver(verify, size);
        receiver = assembly.receiverExecutor(component);
        return KEY + orb.object_to_string(component);
    }

    /** Collocated comp-comp: this process's Receiver's facet, through its reference. */
    RoundTrip localFacet() {
        CcmPerf.Receiver component = CcmPerf.ReceiverHelper.unchecked_narrow(
                container.components().get(0)._reference());
        return component.provide_control();
    }

    /** Client of *-comp: the facet of the published Receiver (one call, before measuring). */
    static RoundTrip facet(OrbSession session, String endpoint) {
        if (!endpoint.startsWith(KEY)) {
            throw new IllegalArgumentException("the endpoint '" + endpoint + "' is no component ("
                    + KEY + "IOR:...): a server of an obj-* scenario?");
        }
        String ior = endpoint.substring(KEY.length()).split("\\s+")[0];
        return CcmPerf.ReceiverHelper.narrow(session.orb().string_to_object(ior)).provide_control();
    }

    /** Client of comp-*: a Caller connected to `target`; its receptacle, for the calls. */
    CallerExecutor caller(RoundTrip target) throws Exception {
        return assembly.createCaller(target, null);
    }

    /** "verify: N calls, ..." of the server's Receiver. */
    String summary() {
        return receiver.counts().summary();
    }

    long bad() {
        return receiver.counts().bad();
    }

    /** Removes the components (ccm_remove on each executor) while the ORB still serves. */
    void remove() throws Exception {
        container.remove();
    }
}
