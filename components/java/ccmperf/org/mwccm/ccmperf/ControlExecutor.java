package org.mwccm.ccmperf;

/**
 * The executor of the Receiver's facet `control` (Test::RoundTrip): the
 * timestamp echo and the payload calls exactly as drivers/omniorb's servant
 * (returns at once; with verify, checks every payload and counts).
 */
public final class ControlExecutor extends CcmPerf._CCM_RoundTripLocalBase {
    private static final long serialVersionUID = 1L;
    private final transient ReceiverExecutor receiver;
    private final transient ReceiverCounts counts;

    ControlExecutor(ReceiverExecutor receiver, ReceiverCounts counts) {
        this.receiver = receiver;
        this.counts = counts;
    }

    @Override
    public long test_method(long sendTime) {
        counts.calls.incrementAndGet();
        return sendTime;
    }

    @Override
    public void ping() {
        counts.calls.incrementAndGet();
    }

    @Override
    public void ping_oneway() {
        counts.calls.incrementAndGet();
    }

    @Override
    public void send_octets(byte[] data) {
        counts.calls.incrementAndGet();
        if (receiver.verify()) {
            checkOctets("octets", data);
        }
    }

    @Override
    public void get_octets(int size, Test.OctetsHolder data) {
        counts.calls.incrementAndGet();
        byte[] reply = receiver.replyBytes();
        if (receiver.verify() && size != receiver.payload_bytes()) {
            throw counts.reject("octets_out request for " + Integer.toUnsignedString(size)
                    + " bytes, expected " + Integer.toUnsignedString(receiver.payload_bytes()));
        }
        if (Integer.compareUnsigned(size, reply.length) > 0) {
            throw counts.reject("octets_out request for " + Integer.toUnsignedString(size)
                    + " bytes, more than the " + reply.length + " of this server's payload_bytes");
        }
        // The reply built once; a shorter request gets a copy of its start.
        data.value = size == reply.length ? reply : java.util.Arrays.copyOf(reply, size);
    }

    @Override
    public void swap_octets(Test.OctetsHolder data) {
        counts.calls.incrementAndGet();
        if (receiver.verify()) {
            checkOctets("octets_inout", data.value);
        }
        byte[] reply = receiver.replyBytes();
        int length = data.value.length;
        if (length > reply.length) {
            throw counts.reject("octets_inout payload of " + length + " bytes, more than the "
                    + reply.length + " of this server's payload_bytes");
        }
        data.value = length == reply.length ? reply : java.util.Arrays.copyOf(reply, length);
    }

    @Override
    public void send_records(Test.Record[] data) {
        counts.calls.incrementAndGet();
        if (!receiver.verify()) {
            return;
        }
        long expected = Integer.toUnsignedLong(receiver.payload_bytes()) / Payloads.RECORD_BYTES;
        if (data.length != expected) {
            throw counts.reject("records: " + data.length + " records, expected " + expected);
        }
        for (int i = 0; i < data.length; ++i) {
            if (!Payloads.recordMatches(data[i], i)) {
                throw counts.reject("records: record " + i + " of " + data.length
                        + " differs from what was sent");
            }
        }
    }

    private void checkOctets(String operation, byte[] data) {
        if (Integer.toUnsignedLong(receiver.payload_bytes()) != data.length) {
            throw counts.reject(operation + " payload of " + data.length + " bytes, expected "
                    + Integer.toUnsignedString(receiver.payload_bytes()));
        }
        int at = Payloads.firstDifference(data);
        if (at != data.length) {
            throw counts.reject(operation + " payload differs from the pattern at byte " + at
                    + " of " + data.length);
        }
    }
}
