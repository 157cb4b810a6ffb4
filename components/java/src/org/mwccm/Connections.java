package org.mwccm;

import Components.ConnectionDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.IntFunction;

/**
 * The connections of a multiplex receptacle or the subscribers of a
 * publisher, each under a cookie id. Copy on write: the hot path reads one
 * volatile array, with no lock and no allocation; connect and disconnect,
 * rare, copy it.
 */
final class Connections<T extends org.omg.CORBA.Object> {
    private final IntFunction<T[]> newArray;
    private volatile long[] ids = new long[0];
    private volatile T[] objects;

    Connections(IntFunction<T[]> newArray) {
        this.newArray = newArray;
        this.objects = newArray.apply(0);
    }

    T[] snapshot() {
        return objects;
    }

    int size() {
        return objects.length;
    }

    synchronized long add(T object) {
        long id = Cookies.nextId();
        int n = objects.length;
        long[] moreIds = java.util.Arrays.copyOf(ids, n + 1);
        T[] more = java.util.Arrays.copyOf(objects, n + 1);
        moreIds[n] = id;
        more[n] = object;
        ids = moreIds;
        objects = more;
        return id;
    }

    /** Removes and returns the connection under `cookie`; null if there is none. */
    synchronized T remove(OptionalLong cookie) {
        if (cookie.isEmpty()) {
            return null;
        }
        for (int i = 0; i < ids.length; ++i) {
            if (ids[i] == cookie.getAsLong()) {
                T removed = objects[i];
                List<T> keptObjects = new ArrayList<>(List.of(objects));
                keptObjects.remove(i);
                long[] keptIds = new long[ids.length - 1];
                System.arraycopy(ids, 0, keptIds, 0, i);
                System.arraycopy(ids, i + 1, keptIds, i, ids.length - i - 1);
                ids = keptIds;
                objects = keptObjects.toArray(newArray.apply(0));
                return removed;
            }
        }
        return null;
    }

    synchronized void removeAll() {
        ids = new long[0];
        objects = newArray.apply(0);
    }

    synchronized ConnectionDescription[] describe() {
        ConnectionDescription[] out = new ConnectionDescription[objects.length];
        for (int i = 0; i < out.length; ++i) {
            out[i] = new ConnectionDescription(Cookies.make(ids[i]), objects[i]);
        }
        return out;
    }
}
