package org.mwccm;

import Components.EventConsumerBase;
import Components.EventConsumerBaseHelper;
import Components.InvalidName;
import Components.PortDescription;
import Components.PortKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * A component's ports by name, in declaration order: what the generic CCM
 * operations (provide_facet, connect, subscribe...) look up. Filled by the
 * generated constructor before the component is installed, only read after.
 */
public final class PortTable {
    private final Map<String, Port> byName = new LinkedHashMap<>();
    private final List<ProvidedPort> provided = new ArrayList<>();
    private String component = "(not installed)";

    public void add(Port port) {
        if (byName.putIfAbsent(port.name(), port) != null) {
            throw new IllegalArgumentException("component port '" + port.name() + "' is declared twice");
        }
        if (port instanceof ProvidedPort) {
            provided.add((ProvidedPort) port);
        }
    }

    /** A facet: `makeServant` makes its servant (a POA tie on the facet's executor) on first use. */
    public void addFacet(String name, String typeId, Function<POA, Servant> makeServant) {
        add(new ProvidedPort(name, PortKind.FACET, typeId, makeServant));
    }

    /** An event sink: its consumer servant, made on first use. */
    public void addConsumer(String name, String typeId, Function<POA, Servant> makeServant) {
        add(new ProvidedPort(name, PortKind.CONSUMER, typeId, makeServant));
    }

    String component() {
        return component;
    }

    void install(String key, POA poa) {
        component = key;
        for (Port port : byName.values()) {
            port.setComponent(key);
        }
        for (ProvidedPort port : provided) {
            port.install(poa, key + "#" + port.name());
        }
    }

    void uninstall() {
        for (ProvidedPort port : provided) {
            port.uninstall();
        }
    }

    public Port find(String name) throws InvalidName {
        Port port = byName.get(name);
        if (port == null) {
            throw new InvalidName("component '" + component + "' has no port '" + name + "'");
        }
        return port;
    }

    /** The port `name` as a `type` of the given kinds; InvalidName saying what it is not. */
    public <P extends Port> P find(String name, Class<P> type, String wanted, PortKind... kinds)
            throws InvalidName {
        Port port = find(name);
        if (type.isInstance(port)) {
            for (PortKind kind : kinds) {
                if (port.kind() == kind) {
                    return type.cast(port);
                }
            }
        }
        throw new InvalidName(port.describe() + " is not " + wanted);
    }

    public org.omg.CORBA.Object provideFacet(String name) throws InvalidName {
        return find(name, ProvidedPort.class, "a facet", PortKind.FACET).reference();
    }

    public EventConsumerBase consumer(String name) throws InvalidName {
        ProvidedPort sink = find(name, ProvidedPort.class, "an event sink", PortKind.CONSUMER);
        return EventConsumerBaseHelper.unchecked_narrow(sink.reference());
    }

    public ReceptaclePort receptacle(String name) throws InvalidName {
        return find(name, ReceptaclePort.class, "a receptacle",
                PortKind.SIMPLEX_RECEPTACLE, PortKind.MULTIPLEX_RECEPTACLE);
    }

    @SuppressWarnings("unchecked")
    public EventSource<EventConsumerBase> publisher(String name) throws InvalidName {
        return find(name, EventSource.class, "a publisher", PortKind.PUBLISHER);
    }

    @SuppressWarnings("unchecked")
    public EventSource<EventConsumerBase> emitter(String name) throws InvalidName {
        return find(name, EventSource.class, "an emitter", PortKind.EMITTER);
    }

    public PortDescription[] describe() {
        List<PortDescription> out = new ArrayList<>();
        for (Port port : byName.values()) {
            out.add(new PortDescription(port.name(), port.kind(), port.typeId(),
                    port.describeConnections()));
        }
        return out.toArray(new PortDescription[0]);
    }
}
