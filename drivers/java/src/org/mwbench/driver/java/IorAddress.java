package org.mwbench.driver.java;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The host and port of a stringified IOR's IIOP profile, decoded from its CDR
 * by hand: the org.omg.IIOP helpers that would do it are in JacORB's org.omg
 * API but not in the GlassFish ORB's, and this code runs on both.
 */
final class IorAddress {
    private static final int TAG_INTERNET_IOP = 0;

    final String host;
    final int port;

    private IorAddress(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** From "IOR:" and the hex of a CDR encapsulation of IOP::IOR. */
    static IorAddress of(String ior) {
        if (!ior.startsWith("IOR:") || ior.length() % 2 != 0) {
            throw new IllegalArgumentException("not a stringified IOR: " + ior);
        }
        byte[] bytes = new byte[(ior.length() - 4) / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(ior.substring(4 + 2 * i, 6 + 2 * i), 16);
        }
        Cdr reader = new Cdr(bytes);
        reader.string(); // type_id
        int profiles = reader.ulong();
        for (int p = 0; p < profiles; p++) {
            int tag = reader.ulong();
            byte[] data = reader.octets();
            if (tag == TAG_INTERNET_IOP) {
                Cdr body = new Cdr(data);
                body.octet(); // iiop_version.major
                body.octet(); // iiop_version.minor
                String host = body.string();
                return new IorAddress(host, body.ushort());
            }
        }
        throw new IllegalArgumentException("an IOR without an IIOP profile: " + ior);
    }

    /** A reader of one CDR encapsulation: its first octet is its byte order. */
    private static final class Cdr {
        private final ByteBuffer buffer;

        Cdr(byte[] encapsulation) {
            buffer = ByteBuffer.wrap(encapsulation);
            buffer.order(buffer.get() == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        }

        byte octet() {
            return buffer.get();
        }

        int ushort() {
            align(2);
            return buffer.getShort() & 0xFFFF;
        }

        int ulong() {
            align(4);
            return buffer.getInt();
        }

        byte[] octets() {
            byte[] bytes = new byte[ulong()];
            buffer.get(bytes);
            return bytes;
        }

        /** A CDR string: its length, its characters and a NUL. */
        String string() {
            byte[] bytes = octets();
            return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.ISO_8859_1);
        }

        private void align(int boundary) {
            buffer.position((buffer.position() + boundary - 1) / boundary * boundary);
        }
    }
}
