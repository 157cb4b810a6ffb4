package org.mwccm.ccmperf;

/**
 * CcmPerf's Receiver, the user's part: the facet `control`, the two sinks
 * (with verify: numbers 1, 2, ... none lost or repeated, and the payload
 * pattern) and the attributes set by name before configuration_complete.
 */
public final class ReceiverExecutor extends CcmPerf.ReceiverExecutorBase {
    private static final long serialVersionUID = 1L;
    private final transient ReceiverCounts counts = new ReceiverCounts();
    private final transient ControlExecutor control = new ControlExecutor(this, counts);
    private volatile boolean verify;
    private volatile int payloadBytes;
    private volatile byte[] reply = new byte[0];
    private long lastValue;
    private long lastStruct;

    public ReceiverCounts counts() {
        return counts;
    }

    byte[] replyBytes() {
        return reply;
    }

    @Override
    public CcmPerf.CCM_RoundTrip get_control() {
        return control;
    }

    @Override
    public boolean verify() {
        return verify;
    }

    @Override
    public void verify(boolean value) {
        verify = value;
    }

    @Override
    public int payload_bytes() {
        return payloadBytes;
    }

    @Override
    public void payload_bytes(int value) {
        payloadBytes = value;
    }

    /** The reply of get_octets and swap_octets, built once, before any call. */
    @Override
    public void configuration_complete() {
        reply = Payloads.reply(payloadBytes);
    }

    @Override
    public synchronized void push_values(CcmPerf.ValueEvent event) {
        counts.valueEvents.incrementAndGet();
        lastValue = checkEvent("value", event.number, lastValue, event.payload);
    }

    @Override
    public synchronized void push_structs(CcmPerf.StructEvent event) {
        counts.structEvents.incrementAndGet();
        lastStruct = checkEvent("struct", event.number, lastStruct, event.payload);
    }

    private long checkEvent(String kind, long number, long last, byte[] payload) {
        if (!verify) {
            return number;
        }
        if (number != last + 1) {
            throw counts.reject(kind + " event " + Long.toUnsignedString(number) + " after "
                    + Long.toUnsignedString(last));
        }
        if (payload.length != payloadBytes || Payloads.firstDifference(payload) != payload.length) {
            throw counts.reject(kind + " event " + number + ": payload of " + payload.length
                    + " bytes is not the pattern of " + payloadBytes);
        }
        return number;
    }
}
