package org.mwbench.driver.java;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.mwbench.harness.Measurement;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Request;
import org.omg.CORBA.TCKind;
import org.omg.CORBA.TypeCode;

/**
 * The open loop on the GlassFish ORB, which has no AMI: each call a DII Request sent with
 * send_deferred(), and a reader thread that takes the requests in the order they were sent
 * and waits for each with get_response(), then completes the call whose number the echoed
 * send_time carries. The GlassFish ORB's send_deferred() starts a thread per request that
 * makes the call synchronously (com.sun.corba.ee.impl.corba.AsynchInvoke): that thread's
 * start is part of each call's service time. Replies come back in order (one connection,
 * one server reader thread that runs the servant), so waiting in order delays none.
 */
final class DeferredReplies {
    private DeferredReplies() {}

    static void run(Measurement m, Targets pick, ORB orb) throws Exception {
        TypeCode ulonglong = orb.get_primitive_tc(TCKind.tk_ulonglong);
        int calls = Math.toIntExact(m.options().warmup() + m.options().samples());
        BlockingQueue<Request> inFlight = new ArrayBlockingQueue<>(calls); // one array, now
        Thread reader = new Thread(() -> answer(m, inFlight), "mwbench-deferred-replies");
        reader.setDaemon(true); // a reply that never comes must not keep the JVM up
        reader.start();
        try {
            m.runOpen(call -> {
                Request request = pick.next()._request("test_method");
                request.add_in_arg().insert_ulonglong(call);
                request.set_return_type(ulonglong);
                request.send_deferred();
                inFlight.add(request);
            });
        } finally {
            reader.interrupt(); // the calls not answered by now are lost
        }
    }

    private static void answer(Measurement m, BlockingQueue<Request> inFlight) {
        try {
            for (;;) {
                Request request = inFlight.take();
                request.get_response();
                Exception raised = request.env().exception();
                if (raised != null) {
                    m.fail("test_method (deferred DII) raised " + FirstCall.describe(raised));
                } else {
                    m.completed(request.return_value().extract_ulonglong());
                }
            }
        } catch (InterruptedException | org.omg.CORBA.WrongTransaction e) {
            // the run is over
        }
    }
}
