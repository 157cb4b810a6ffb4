package org.mwbench.driver.java;

import Test.OctetsHolder;
import Test.Record;
import Test.RoundTripPOA;
import java.util.concurrent.atomic.AtomicLong;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;

/**
 * A servant of Test::RoundTrip, as the omniorb driver's: every operation
 * returns at once, so that a measured call is the ORB's cost alone. What it
 * sends back (octets_out, octets_inout) is one array shared by all servants
 * of the process, built before serving and never copied per call. With
 * verify=1 it also checks every payload and counts its calls (the tests check
 * that random targets reach every servant); that costs a pass over the
 * payload and is off for measurements. With a delivery board (delivery=1,
 * invocation=oneway) every operation stamps it first, the instant the call's
 * arguments reached the servant's code; behind the DSI (DsiServant) the DSI
 * servant stamps instead, on entry to invoke().
 */
final class RoundTripServant extends RoundTripPOA {
    /** What all servants of a process share. */
    static final class Shared {
        final boolean verify;
        final int payloadBytes;
        final byte[] reply;
        final AtomicLong badPayloads = new AtomicLong();
        /** Stamped on entry to every call; null when nobody times deliveries. */
        final DeliveryBoard board;

        Shared(boolean verify, int payloadBytes, DeliveryBoard board) {
            this.verify = verify;
            this.payloadBytes = payloadBytes;
            this.reply = Payloads.reply(payloadBytes);
            this.board = board;
        }
    }

    private final Shared shared;
    private final DeliveryBoard board; // the shared one, or null behind the DSI
    private final AtomicLong calls = new AtomicLong();

    /** {@code stamps}: false behind the DSI, whose invoke() stamps the board itself. */
    RoundTripServant(Shared shared, boolean stamps) {
        this.shared = shared;
        this.board = stamps ? shared.board : null;
    }

    /** Calls served (counted with verify=1 only). */
    long calls() {
        return calls.get();
    }

    @Override
    public long test_method(long sendTime) {
        count();
        return sendTime;
    }

    @Override
    public void ping() {
        count();
    }

    @Override
    public void ping_oneway() {
        count();
    }

    @Override
    public void send_octets(byte[] data) {
        count();
        if (shared.verify) {
            checkOctets("octets", data);
        }
    }

    @Override
    public void get_octets(int size, OctetsHolder data) {
        count();
        if (shared.verify && size != shared.payloadBytes) {
            reject("octets_out request for " + Integer.toUnsignedString(size)
                    + " bytes, expected " + shared.payloadBytes);
        }
        data.value = replyOf(Integer.toUnsignedLong(size), "octets_out request for");
    }

    @Override
    public void swap_octets(OctetsHolder data) {
        count();
        if (shared.verify) {
            checkOctets("octets_inout", data.value);
        }
        // Swapped, not echoed: the reply is the servant's own bytes.
        data.value = replyOf(data.value.length, "octets_inout payload of");
    }

    @Override
    public void send_records(Record[] data) {
        count();
        if (!shared.verify) {
            return;
        }
        long expected = shared.payloadBytes / Payloads.RECORD_BYTES;
        if (data.length != expected) {
            reject("records: " + data.length + " records, expected " + expected);
        }
        for (int i = 0; i < data.length; i++) {
            if (!Payloads.recordMatches(data[i], i)) {
                reject("records: record " + i + " of " + data.length + " differs from what was sent");
            }
        }
    }

    /** The shared reply, or a prefix of it when a client asks for fewer bytes (a mismatch). */
    private byte[] replyOf(long length, String what) {
        if (length == shared.reply.length) {
            return shared.reply;
        }
        if (length > shared.reply.length) {
            reject(what + " " + length + " bytes, more than the " + shared.reply.length
                    + " of this server's --payload-bytes");
        }
        return java.util.Arrays.copyOf(shared.reply, (int) length);
    }

    private void checkOctets(String operation, byte[] data) {
        if (data.length != shared.payloadBytes) {
            reject(operation + " payload of " + data.length + " bytes, expected "
                    + shared.payloadBytes);
        }
        int at = Payloads.firstPatternDifference(data);
        if (at != data.length) {
            reject(operation + " payload differs from the pattern at byte " + at + " of "
                    + data.length);
        }
    }

    /** First thing in every operation. */
    private void count() {
        if (board != null) {
            board.stamp();
        }
        if (shared.verify) {
            calls.incrementAndGet();
        }
    }

    /**
     * Counts a bad payload, says what was wrong (the first time only: a client
     * that goes on calling must not flood the log) and raises BAD_PARAM, which
     * is all the client sees.
     */
    private void reject(String what) {
        if (shared.badPayloads.getAndIncrement() == 0) {
            System.err.println("mwbench-driver-java: error: " + what);
        }
        throw new BAD_PARAM(0, CompletionStatus.COMPLETED_YES);
    }
}
