package org.mwccm;

import Components.AlreadyConnected;
import Components.ConnectionDescription;
import Components.Cookie;
import Components.EventConsumerBase;
import Components.InvalidConnection;
import Components.NoConnection;
import Components.PortKind;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * An event source: a publisher (`publishes`, any number of subscribers, each
 * under a cookie) or an emitter (`emits`, at most one consumer). Events go to
 * each consumer's typed push operation through its reference, in the calling
 * thread (mwccm's `direct` delivery); the generated context loops over
 * {@link #consumers}.
 */
public final class EventSource<C extends EventConsumerBase> extends Port {
    private final Function<org.omg.CORBA.Object, C> narrow;
    private final Connections<C> consumers;

    public static <C extends EventConsumerBase> EventSource<C> publisher(String name, String typeId,
            Function<org.omg.CORBA.Object, C> narrow, IntFunction<C[]> newArray) {
        return new EventSource<>(name, PortKind.PUBLISHER, typeId, narrow, newArray);
    }

    public static <C extends EventConsumerBase> EventSource<C> emitter(String name, String typeId,
            Function<org.omg.CORBA.Object, C> narrow, IntFunction<C[]> newArray) {
        return new EventSource<>(name, PortKind.EMITTER, typeId, narrow, newArray);
    }

    private EventSource(String name, PortKind kind, String typeId,
            Function<org.omg.CORBA.Object, C> narrow, IntFunction<C[]> newArray) {
        super(name, kind, typeId);
        this.narrow = narrow;
        this.consumers = new Connections<>(newArray);
    }

    /** Hot path: the consumers now (do not modify the array). */
    public C[] consumers() {
        return consumers.snapshot();
    }

    /** subscribe_<name>: a publisher's new subscriber (typed: no _is_a). */
    public Cookie subscribe(C consumer) {
        if (consumer == null) {
            throw new org.omg.CORBA.BAD_PARAM(describe() + " got a nil reference; subscribe refused");
        }
        return Cookies.make(consumers.add(consumer));
    }

    /** subscribe(name, consumer): type-checked once here (_is_a). */
    public Cookie subscribeObject(EventConsumerBase consumer) throws InvalidConnection {
        checkType(consumer, "subscribe");
        return subscribe(narrow.apply(consumer));
    }

    public C unsubscribe(Cookie ck, String operation) throws InvalidConnection {
        C former = consumers.remove(Cookies.id(ck));
        if (former == null) {
            throw PortErrors.badCookie(this, operation);
        }
        return former;
    }

    /** connect_<name>: an emitter's one consumer (typed: no _is_a). */
    public void connect(C consumer) throws AlreadyConnected {
        if (consumer == null) {
            throw new org.omg.CORBA.BAD_PARAM(describe() + " got a nil reference; connect refused");
        }
        synchronized (consumers) {
            if (consumers.size() > 0) {
                throw PortErrors.alreadyConnected(this, "connect_" + name());
            }
            consumers.add(consumer);
        }
    }

    /** connect_consumer(name, consumer): type-checked once here (_is_a). */
    public void connectObject(EventConsumerBase consumer) throws AlreadyConnected, InvalidConnection {
        checkType(consumer, "connect_consumer");
        connect(narrow.apply(consumer));
    }

    public C disconnect(String operation) throws NoConnection {
        synchronized (consumers) {
            C[] now = consumers.snapshot();
            if (now.length == 0) {
                throw PortErrors.notConnected(this, operation);
            }
            consumers.removeAll();
            return now[0];
        }
    }

    @Override
    public ConnectionDescription[] describeConnections() {
        ConnectionDescription[] described = consumers.describe();
        if (kind() == PortKind.EMITTER) {
            for (ConnectionDescription connection : described) {
                connection.ck = null; // an emitter's connection has no cookie
            }
        }
        return described;
    }

}
