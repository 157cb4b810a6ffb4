package org.mwccm.checks;

import Components.AlreadyConnected;
import Components.CCMObject;
import Components.CCMObjectHelper;
import Components.ConnectionDescription;
import Components.Cookie;
import Components.EventConsumerBase;
import Components.InvalidConnection;
import Components.InvalidName;
import Components.KeylessCCMHome;
import Components.KeylessCCMHomeHelper;
import Components.NoConnection;
import Components.PortDescription;
import java.util.Arrays;
import org.omg.CORBA.ORB;

/** A Caller's receptacle `peer` and publisher `values` by name: connect, cookies and the errors. */
final class ReceptacleChecks {
    private final CCMObject receiver;
    private final KeylessCCMHome callers;

    ReceptacleChecks(ORB orb, String line) {
        receiver = CCMObjectHelper.narrow(ComponentChecks.object(orb, line, "component"));
        callers = KeylessCCMHomeHelper.narrow(ComponentChecks.object(orb, line, "caller_home"));
    }

    void run() throws Exception {
        CCMObject caller = callers.create_named_component("checked-caller");
        String peer = "receptacle 'peer' of component 'checked-caller'";
        org.omg.CORBA.Object facet = receiver.provide_facet("control");
        Expect.raises(InvalidConnection.class, peer + " got a nil reference; connect refused",
                () -> caller.connect("peer", null));
        Expect.raises(InvalidConnection.class, peer + " takes IDL:Test/RoundTrip:1.0, the reference is not one;"
                + " connect refused", () -> caller.connect("peer", receiver));
        Expect.raises(InvalidName.class, "component 'checked-caller' has no port 'nope'",
                () -> caller.connect("nope", facet));
        Expect.raises(InvalidName.class, "publisher 'values' of component 'checked-caller' is not a receptacle",
                () -> caller.connect("values", facet));
        Expect.equal(null, caller.connect("peer", facet), "a simplex connection's cookie");
        Expect.raises(AlreadyConnected.class, peer + " already connected; connect_peer refused",
                () -> caller.connect("peer", facet));
        ConnectionDescription[] connected = caller.get_connections("peer");
        Expect.equal(1, connected.length, "get_connections of a connected simplex receptacle");
        Expect.that(connected[0].objref._is_equivalent(facet), "get_connections gives the facet");
        Expect.that(caller.disconnect("peer", null)._is_equivalent(facet), "disconnect returns the facet");
        Expect.raises(NoConnection.class, peer + " is not connected; disconnect_peer refused",
                () -> caller.disconnect("peer", null));
        Expect.equal(0, caller.get_connections("peer").length, "get_connections after disconnect");

        EventConsumerBase values = receiver.get_consumer("values");
        EventConsumerBase structs = receiver.get_consumer("structs");
        String publisher = "publisher 'values' of component 'checked-caller'";
        Cookie first = caller.subscribe("values", values);
        Cookie second = caller.subscribe("values", values);
        Expect.that(first != null && second != null, "a subscription's cookie");
        Expect.that(!Arrays.equals(first.cookieValue, second.cookieValue), "two subscriptions, two cookies");
        PortDescription values_port = Arrays.stream(caller.get_all_ports())
                .filter(port -> port.name.equals("values")).findFirst().orElseThrow();
        Expect.equal(2, values_port.connections.length, "get_all_ports: the publisher's subscribers");
        Expect.raises(InvalidConnection.class, publisher + " takes IDL:CcmPerf/ValueEventConsumer:1.0,"
                + " the reference is not one; subscribe refused", () -> caller.subscribe("values", structs));
        Expect.raises(InvalidName.class, "receptacle 'peer' of component 'checked-caller' is not a publisher",
                () -> caller.subscribe("peer", values));
        Expect.raises(InvalidName.class, publisher + " is not an emitter",
                () -> caller.connect_consumer("values", values));
        Expect.that(caller.unsubscribe("values", first)._is_equivalent(values), "unsubscribe returns the sink");
        Expect.raises(InvalidConnection.class, publisher + " has no connection with this cookie;"
                + " unsubscribe refused", () -> caller.unsubscribe("values", first));
        caller.unsubscribe("values", second);
        callers.remove_component(caller);
    }
}
