package org.mwccm.sender;

/** The Receiver's facet `echo`: test_method echoes, the rest does nothing. */
final class SinkEcho extends Bench.Sink._CCM_RoundTripLocalBase {
    private static final long serialVersionUID = 1L;

    @Override
    public long test_method(long sendTime) {
        return sendTime;
    }

    @Override
    public void ping() {
    }

    @Override
    public void send_octets(byte[] data) {
    }

    @Override
    public void get_octets(int size, Test.OctetsHolder data) {
        data.value = new byte[size];
    }

    @Override
    public void swap_octets(Test.OctetsHolder data) {
    }

    @Override
    public void send_records(Test.Record[] data) {
    }
}
