package org.mwccm.checks;

import Components.CCMObject;
import Components.CCMObjectHelper;
import Components.InvalidName;
import Components.PortDescription;
import Components.PortKind;
import java.util.ArrayList;
import java.util.List;
import org.omg.CORBA.ORB;

/** CCMObject navigation of a CcmPerf Receiver: provide_facet by name, get_all_ports. */
final class NavigationChecks {
    private final CCMObject receiver;
    private final String key;

    NavigationChecks(ORB orb, String line) {
        receiver = CCMObjectHelper.narrow(ComponentChecks.object(orb, line, "component"));
        key = "receiver";
    }

    void run() throws Exception {
        Test.RoundTrip control = Test.RoundTripHelper.narrow(receiver.provide_facet("control"));
        Expect.equal(42L, control.test_method(42), "test_method through the facet provide_facet gave");
        Expect.that(receiver._is_a("IDL:CcmPerf/Receiver:1.0"), "the component is a CcmPerf::Receiver");
        Expect.raises(InvalidName.class, "component '" + key + "' has no port 'nope'",
                () -> receiver.provide_facet("nope"));
        Expect.raises(InvalidName.class, "sink 'values' of component '" + key + "' is not a facet",
                () -> receiver.provide_facet("values"));
        Expect.raises(InvalidName.class, "facet 'control' of component '" + key + "' is not a receptacle",
                () -> receiver.connect("control", control));

        PortDescription[] ports = receiver.get_all_ports();
        List<String> names = new ArrayList<>();
        for (PortDescription port : ports) {
            names.add(port.name + ":" + port.kind.value());
        }
        Expect.equal(List.of("control:" + PortKind._FACET, "values:" + PortKind._CONSUMER,
                "structs:" + PortKind._CONSUMER), names, "get_all_ports (name:kind)");
        // get_all_facets, as mwccm answers it: the FACET entries of get_all_ports.
        PortDescription facet = ports[0];
        Expect.equal("IDL:Test/RoundTrip:1.0", facet.type_id, "the facet's type id");
        Expect.equal(1, facet.connections.length, "a facet's own reference in get_all_ports");
        Expect.that(facet.connections[0].objref._is_equivalent(control),
                "the facet of get_all_ports is the one provide_facet gave");
        Expect.equal(5L, Test.RoundTripHelper.narrow(facet.connections[0].objref).test_method(5),
                "test_method through the facet get_all_ports gave");
    }
}
