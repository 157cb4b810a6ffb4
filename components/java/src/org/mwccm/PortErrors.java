package org.mwccm;

import Components.AlreadyConnected;
import Components.CookieRequired;
import Components.ExceededConnectionLimit;
import Components.InvalidConnection;
import Components.NoConnection;

/** The wording of every port refusal, in one place, as mwccm's C++ (port_errors.cpp) words it. */
final class PortErrors {
    private PortErrors() {
    }

    private static String refused(String operation) {
        return "; " + operation + " refused";
    }

    static AlreadyConnected alreadyConnected(Port port, String operation) {
        return new AlreadyConnected(port.describe() + " already connected" + refused(operation));
    }

    static NoConnection notConnected(Port port, String operation) {
        return new NoConnection(port.describe() + " is not connected" + refused(operation));
    }

    static InvalidConnection badCookie(Port port, String operation) {
        return new InvalidConnection(port.describe() + " has no connection with this cookie"
                + refused(operation));
    }

    static CookieRequired cookieRequired(Port port, String operation) {
        return new CookieRequired(port.describe() + " needs a cookie" + refused(operation));
    }

    static ExceededConnectionLimit connectionLimit(Port port, int limit, String operation) {
        return new ExceededConnectionLimit(port.describe() + " already has " + limit
                + " connections" + refused(operation));
    }

    static InvalidConnection nilReference(Port port, String operation) {
        return new InvalidConnection(port.describe() + " got a nil reference" + refused(operation));
    }
}
