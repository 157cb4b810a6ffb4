package org.mwccm.ccmperf;

import Components.NoConnection;

/**
 * CcmPerf's Caller, the user's part: calls through its `peer` receptacle
 * (the context's get_connection_peer(): one volatile read, the stub itself)
 * and pushes events from its sources. A measuring program calls these
 * methods in its loop.
 */
public final class CallerExecutor extends CcmPerf.CallerExecutorBase {
    private static final long serialVersionUID = 1L;

    /**
     * The measured path: the stub the receptacle `peer` holds, null when it
     * is not connected (the context's one volatile read, no lock, no allocation).
     */
    public Test.RoundTrip receptacle() {
        return context().get_connection_peer();
    }

    /** The facet the receptacle is connected to; NoConnection when it is not. */
    public Test.RoundTrip peer() throws NoConnection {
        Test.RoundTrip peer = context().get_connection_peer();
        if (peer == null) {
            throw new NoConnection("receptacle 'peer' of a Caller is not connected; use refused");
        }
        return peer;
    }

    /** test_method(sendTime) through the receptacle: the timestamp echo. */
    public long roundtrip(long sendTime) throws NoConnection {
        return peer().test_method(sendTime);
    }

    public void pushValue(CcmPerf.ValueEvent event) {
        context().push_values(event);
    }

    public void pushStruct(CcmPerf.StructEvent event) {
        context().push_structs(event);
    }
}
