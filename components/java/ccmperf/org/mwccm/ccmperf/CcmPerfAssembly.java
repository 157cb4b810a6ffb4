package org.mwccm.ccmperf;

import Components.ConfigValue;
import org.mwccm.Container;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;

/**
 * CcmPerf's components assembled in one container, every step through the
 * components' references as a deployment would (as drivers/ccm's
 * ComponentHost): what CcmPerfHost and a measuring program share. Keys:
 * "receiver" and "caller"; homes "receiver-home" and "caller-home".
 */
public final class CcmPerfAssembly {
    private final ORB orb;
    private final Container container;
    private CcmPerf.ReceiverHome receiverHome;
    private CcmPerf.CallerHome callerHome;

    public CcmPerfAssembly(ORB orb, Container container) {
        this.orb = orb;
        this.container = container;
    }

    public CcmPerf.ReceiverHome receiverHome() throws org.omg.CORBA.UserException {
        if (receiverHome == null) {
            receiverHome = CcmPerf.ReceiverHomeHelper.narrow(container.installHome("receiver-home",
                    new CcmPerf.ReceiverHomeServant(new ReceiverHomeExecutor())));
        }
        return receiverHome;
    }

    public CcmPerf.CallerHome callerHome() throws org.omg.CORBA.UserException {
        if (callerHome == null) {
            callerHome = CcmPerf.CallerHomeHelper.narrow(container.installHome("caller-home",
                    new CcmPerf.CallerHomeServant(new CallerHomeExecutor())));
        }
        return callerHome;
    }

    /** A Receiver configured by name (verify, payload_bytes) and activated. */
    public CcmPerf.Receiver createReceiver(boolean verify, int payloadBytes) throws org.omg.CORBA.UserException {
        CcmPerf.Receiver receiver = CcmPerf.ReceiverHelper.narrow(
                receiverHome().create_named_component("receiver"));
        Any verifyValue = orb.create_any();
        verifyValue.insert_boolean(verify);
        Any bytes = orb.create_any();
        bytes.insert_ulong(payloadBytes);
        receiver.set_configuration(new ConfigValue[] {
            new ConfigValue("verify", verifyValue), new ConfigValue("payload_bytes", bytes),
        });
        activate(receiver);
        return receiver;
    }

    /**
     * A Caller whose `peer` is connected to `target` and, if `eventsTo` is
     * not null, whose sources are subscribed to that Receiver's sinks;
     * activated. Its executor is what a measuring loop calls.
     */
    public CallerExecutor createCaller(Test.RoundTrip target, CcmPerf.Receiver eventsTo)
            throws org.omg.CORBA.UserException {
        CcmPerf.Caller caller = CcmPerf.CallerHelper.narrow(callerHome().create_named_component("caller"));
        caller.connect_peer(target);
        if (eventsTo != null) {
            caller.subscribe_values(eventsTo.get_consumer_values());
            caller.subscribe_structs(eventsTo.get_consumer_structs());
        }
        activate(caller);
        return (CallerExecutor) container.componentOf(caller)._executor();
    }

    /** The executor of a Receiver of this container. */
    public ReceiverExecutor receiverExecutor(CcmPerf.Receiver receiver) {
        return (ReceiverExecutor) container.componentOf(receiver)._executor();
    }

    private void activate(Components.CCMObject component) throws org.omg.CORBA.UserException {
        component.configuration_complete();
        container.activate(container.componentOf(component));
    }
}
