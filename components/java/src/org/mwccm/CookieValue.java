package org.mwccm;

/** The concrete Components::Cookie: one 64-bit id, little-endian in its octets (as mwccm's C++). */
public final class CookieValue extends Components.Cookie {
    private static final long serialVersionUID = 1L;

    public CookieValue() {
        cookieValue = new byte[0];
    }
}
