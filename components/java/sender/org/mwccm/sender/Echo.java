package org.mwccm.sender;

/**
 * The facets `control` of the Sender and `echo` of the Receiver: test_method
 * echoes, the rest does nothing. One class for the two modules' executor
 * interfaces of Test::RoundTrip, which have the same operations.
 */
final class Echo extends org.omg.CORBA.LocalObject implements Bench.CCM_RoundTrip, Bench.Sink.CCM_RoundTrip {
    private static final long serialVersionUID = 1L;

    @Override
    public long test_method(long sendTime) {
        return sendTime;
    }

    @Override
    public void ping() {
    }

    @Override
    public void ping_oneway() {
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
