package org.mwccm.ccmperf;

import Components.ConfigValue;
import org.mwccm.ComponentBase;
import org.mwccm.Container;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;

/**
 * CcmPerf's components assembled in one container (as drivers/ccm's
 * ComponentHost): what CcmPerfHost and a measuring program share. Keys
 * "receiver" and "caller", homes "receiver-home" and "caller-home". Each
 * step is the CCM operation a deployment would call, made on the component
 * or home object itself rather than through its reference: no call goes
 * through the ORB, so it works before the POA manager dispatches (a server
 * publishes before it does).
 */
public final class CcmPerfAssembly {
    private final ORB orb;
    private final Container container;
    private CcmPerf.ReceiverHomeServant receiverHome;
    private CcmPerf.CallerHomeServant callerHome;

    public CcmPerfAssembly(ORB orb, Container container) {
        this.orb = orb;
        this.container = container;
    }

    public Components.CCMHome receiverHome() throws org.omg.CORBA.UserException {
        if (receiverHome == null) {
            receiverHome = new CcmPerf.ReceiverHomeServant(new ReceiverHomeExecutor());
            container.installHome("receiver-home", receiverHome);
        }
        return receiverHome._reference();
    }

    public Components.CCMHome callerHome() throws org.omg.CORBA.UserException {
        if (callerHome == null) {
            callerHome = new CcmPerf.CallerHomeServant(new CallerHomeExecutor());
            container.installHome("caller-home", callerHome);
        }
        return callerHome._reference();
    }

    /** A Receiver configured by name (verify, payload_bytes) and activated. */
    public CcmPerf.Receiver createReceiver(boolean verify, int payloadBytes) throws org.omg.CORBA.UserException {
        receiverHome();
        ComponentBase receiver = container.componentOf(receiverHome.create_named_component("receiver"));
        Any verifyValue = orb.create_any();
        verifyValue.insert_boolean(verify);
        Any bytes = orb.create_any();
        bytes.insert_ulong(payloadBytes);
        receiver.set_configuration(new ConfigValue[] {
            new ConfigValue("verify", verifyValue), new ConfigValue("payload_bytes", bytes),
        });
        activate(receiver);
        return CcmPerf.ReceiverHelper.unchecked_narrow(receiver._reference());
    }

    /**
     * A Caller whose `peer` is connected to `target` and, if `eventsTo` is
     * not null, whose sources are subscribed to that Receiver's sinks;
     * activated. Its executor is what a measuring loop calls.
     */
    public CallerExecutor createCaller(Test.RoundTrip target, CcmPerf.Receiver eventsTo)
            throws org.omg.CORBA.UserException {
        callerHome();
        CcmPerf.CallerComponent caller = (CcmPerf.CallerComponent) container.componentOf(
                callerHome.create_named_component("caller"));
        caller.connect_peer(target);
        if (eventsTo != null) {
            caller.subscribe_values(eventsTo.get_consumer_values());
            caller.subscribe_structs(eventsTo.get_consumer_structs());
        }
        activate(caller);
        return (CallerExecutor) caller._executor();
    }

    /** The executor of a Receiver of this container. */
    public ReceiverExecutor receiverExecutor(CcmPerf.Receiver receiver) {
        return (ReceiverExecutor) container.componentOf(receiver)._executor();
    }

    private void activate(ComponentBase component) throws org.omg.CORBA.UserException {
        component.configuration_complete();
        container.activate(component);
    }
}
