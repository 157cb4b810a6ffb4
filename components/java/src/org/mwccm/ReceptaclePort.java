package org.mwccm;

import Components.AlreadyConnected;
import Components.Cookie;
import Components.CookieRequired;
import Components.ExceededConnectionLimit;
import Components.InvalidConnection;
import Components.NoConnection;
import Components.PortKind;

/** What Components::Receptacles does by name: the untyped side of a receptacle. */
public abstract class ReceptaclePort extends Port {
    protected ReceptaclePort(String name, PortKind kind, String typeId) {
        super(name, kind, typeId);
    }

    /** connect(name, ref): type-checked once here (_is_a), never on a call. */
    public abstract Cookie connectObject(org.omg.CORBA.Object ref)
            throws AlreadyConnected, InvalidConnection, ExceededConnectionLimit;

    public abstract org.omg.CORBA.Object disconnectObject(Cookie ck)
            throws InvalidConnection, CookieRequired, NoConnection;
}
