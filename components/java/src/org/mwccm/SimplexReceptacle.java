package org.mwccm;

import Components.AlreadyConnected;
import Components.ConnectionDescription;
import Components.Cookie;
import Components.InvalidConnection;
import Components.NoConnection;
import Components.PortKind;
import java.util.function.Function;

/**
 * A receptacle with at most one connection (`uses T name`). The executor
 * calls the stub itself: {@link #get} is one volatile read, no lock, no
 * allocation.
 */
public final class SimplexReceptacle<T extends org.omg.CORBA.Object> extends ReceptaclePort {
    private final Function<org.omg.CORBA.Object, T> narrow;
    private volatile T connection;

    /** `narrow` is the IDL helper's unchecked_narrow: connect has checked the type already. */
    public SimplexReceptacle(String name, String typeId, Function<org.omg.CORBA.Object, T> narrow) {
        super(name, PortKind.SIMPLEX_RECEPTACLE, typeId);
        this.narrow = narrow;
    }

    /** Typed connect (connect_<name>): the IDL type already holds, so no _is_a. */
    public synchronized void connect(T ref) throws AlreadyConnected, InvalidConnection {
        if (ref == null) {
            throw PortErrors.nilReference(this, "connect_" + name());
        }
        if (connection != null) {
            throw PortErrors.alreadyConnected(this, "connect_" + name());
        }
        connection = ref;
    }

    /** Returns the former connection; NoConnection if none. */
    public synchronized T disconnect() throws NoConnection {
        T former = connection;
        if (former == null) {
            throw PortErrors.notConnected(this, "disconnect_" + name());
        }
        connection = null;
        return former;
    }

    /** The connection, null when unconnected (get_connection_<name>). */
    public T get() {
        return connection;
    }

    /** The connection; NoConnection when unconnected. */
    public T connected() throws NoConnection {
        T current = connection;
        if (current == null) {
            throw PortErrors.notConnected(this, "use");
        }
        return current;
    }

    @Override
    public Cookie connectObject(org.omg.CORBA.Object ref) throws AlreadyConnected, InvalidConnection {
        checkType(ref, "connect");
        connect(narrow.apply(ref));
        return null; // a simplex connection has no cookie
    }

    @Override
    public org.omg.CORBA.Object disconnectObject(Cookie ck) throws NoConnection {
        return disconnect();
    }

    @Override
    public ConnectionDescription[] describeConnections() {
        T current = connection;
        if (current == null) {
            return new ConnectionDescription[0];
        }
        return new ConnectionDescription[] {new ConnectionDescription(null, current)};
    }
}
