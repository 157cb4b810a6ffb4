package org.mwccm;

import Components.ConnectionDescription;
import Components.Cookie;
import Components.CookieRequired;
import Components.ExceededConnectionLimit;
import Components.InvalidConnection;
import Components.PortKind;
import java.util.function.Function;
import java.util.function.IntFunction;

/** A receptacle with any number of connections (`uses multiple T name`), each under a cookie. */
public final class MultiplexReceptacle<T extends org.omg.CORBA.Object> extends ReceptaclePort {
    private final Function<org.omg.CORBA.Object, T> narrow;
    private final Connections<T> connections;
    private final int limit;

    public MultiplexReceptacle(String name, String typeId, Function<org.omg.CORBA.Object, T> narrow,
            IntFunction<T[]> newArray) {
        this(name, typeId, narrow, newArray, Integer.MAX_VALUE);
    }

    public MultiplexReceptacle(String name, String typeId, Function<org.omg.CORBA.Object, T> narrow,
            IntFunction<T[]> newArray, int limit) {
        super(name, PortKind.MULTIPLEX_RECEPTACLE, typeId);
        this.narrow = narrow;
        this.connections = new Connections<>(newArray);
        this.limit = limit;
    }

    /** Typed connect (connect_<name>): returns the connection's cookie. */
    public Cookie connect(T ref) throws ExceededConnectionLimit, InvalidConnection {
        if (ref == null) {
            throw PortErrors.nilReference(this, "connect_" + name());
        }
        synchronized (connections) {
            if (connections.size() >= limit) {
                throw PortErrors.connectionLimit(this, limit, "connect_" + name());
            }
            return Cookies.make(connections.add(ref));
        }
    }

    /** disconnect_<name>: the connection the cookie named; InvalidConnection for another cookie. */
    public T disconnect(Cookie ck) throws InvalidConnection {
        T former = connections.remove(Cookies.id(ck));
        if (former == null) {
            throw PortErrors.badCookie(this, "disconnect_" + name());
        }
        return former;
    }

    /** Hot path: the connections now (do not modify the array). */
    public T[] all() {
        return connections.snapshot();
    }

    @Override
    public Cookie connectObject(org.omg.CORBA.Object ref) throws ExceededConnectionLimit, InvalidConnection {
        checkType(ref, "connect");
        return connect(narrow.apply(ref));
    }

    @Override
    public org.omg.CORBA.Object disconnectObject(Cookie ck) throws InvalidConnection, CookieRequired {
        if (ck == null) {
            throw PortErrors.cookieRequired(this, "disconnect_" + name());
        }
        return disconnect(ck);
    }

    @Override
    public ConnectionDescription[] describeConnections() {
        return connections.describe();
    }
}
