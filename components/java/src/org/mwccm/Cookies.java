package org.mwccm;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.omg.CORBA.ORB;
import org.omg.CORBA.portable.ValueFactory;

/**
 * Cookies and their value factory. An ORB unmarshals a Cookie (a valuetype)
 * only with a factory registered for its repository id: every process that
 * connects, disconnects or navigates receptacles calls {@link #register}
 * once (the container does it for its own).
 */
public final class Cookies {
    private static final AtomicLong LAST_ID = new AtomicLong();
    private static final String REPOSITORY_ID = Components.CookieHelper.id();

    private Cookies() {
    }

    /** Registers the Cookie value factory with `orb` (org.omg.CORBA_2_3.ORB's standard call). */
    public static void register(ORB orb) {
        ValueFactory factory = in -> in.read_value(new CookieValue());
        ((org.omg.CORBA_2_3.ORB) orb).register_value_factory(REPOSITORY_ID, factory);
    }

    public static Components.Cookie make(long id) {
        CookieValue cookie = new CookieValue();
        byte[] octets = new byte[8];
        for (int i = 0; i < 8; ++i) {
            octets[i] = (byte) (id >>> (8 * i));
        }
        cookie.cookieValue = octets;
        return cookie;
    }

    /** The id a cookie carries; empty for null or a cookie of another layout. */
    public static OptionalLong id(Components.Cookie cookie) {
        if (cookie == null || cookie.cookieValue == null || cookie.cookieValue.length != 8) {
            return OptionalLong.empty();
        }
        long id = 0;
        for (int i = 0; i < 8; ++i) {
            id |= (cookie.cookieValue[i] & 0xffL) << (8 * i);
        }
        return OptionalLong.of(id);
    }

    static long nextId() {
        return LAST_ID.incrementAndGet();
    }
}
