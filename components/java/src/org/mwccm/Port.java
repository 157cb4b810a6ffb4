package org.mwccm;

import Components.ConnectionDescription;
import Components.InvalidConnection;
import Components.PortKind;

/**
 * One port of a component: its name, kind and repository id, and the words
 * every refusal names it with ("receptacle 'peer' of component 'Caller.1'").
 */
public abstract class Port {
    private final String name;
    private final PortKind kind;
    private final String typeId;
    private volatile String component = "(not installed)";

    protected Port(String name, PortKind kind, String typeId) {
        this.name = name;
        this.kind = kind;
        this.typeId = typeId;
    }

    public final String name() {
        return name;
    }

    public final PortKind kind() {
        return kind;
    }

    public final String typeId() {
        return typeId;
    }

    final void setComponent(String key) {
        component = key;
    }

    /** The component's key, or "(not installed)". */
    public final String component() {
        return component;
    }

    public final String describe() {
        return kindWord() + " '" + name + "' of component '" + component + "'";
    }

    /** What get_all_ports says of its connections (a facet: its own reference). */
    public abstract ConnectionDescription[] describeConnections();

    /** InvalidConnection unless `ref` is a non-nil reference of this port's type (one _is_a call). */
    protected final void checkType(org.omg.CORBA.Object ref, String operation) throws InvalidConnection {
        if (ref == null) {
            throw PortErrors.nilReference(this, operation);
        }
        boolean isA;
        try {
            isA = ref._is_a(typeId);
        } catch (org.omg.CORBA.SystemException e) {
            throw new InvalidConnection(describe() + ": the reference could not be checked ("
                    + e.getClass().getSimpleName() + "); " + operation + " refused");
        }
        if (!isA) {
            throw new InvalidConnection(describe() + " takes " + typeId
                    + ", the reference is not one; " + operation + " refused");
        }
    }

    private String kindWord() {
        switch (kind.value()) {
            case PortKind._FACET:
                return "facet";
            case PortKind._SIMPLEX_RECEPTACLE:
                return "receptacle";
            case PortKind._MULTIPLEX_RECEPTACLE:
                return "multiplex receptacle";
            case PortKind._PUBLISHER:
                return "publisher";
            case PortKind._EMITTER:
                return "emitter";
            case PortKind._CONSUMER:
                return "sink";
            default:
                return "port";
        }
    }
}
