package org.mwbench.driver.java;

import Test.OctetsHelper;
import Test.Record;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.Measurement.Call;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Request;
import org.omg.CORBA.TCKind;
import org.omg.CORBA.TypeCode;

/**
 * invocation=dii: each call through the Dynamic Invocation Interface, a
 * {@link Request} made from the reference (_request), its arguments inserted
 * into Anys (Anys), then invoke(). A Request serves one invocation, so every call
 * makes one, with its argument list: that is the DII's cost, measured, as
 * Open CORBA Benchmarking measures it. The type codes are looked up once.
 */
final class DiiCalls {
    private DiiCalls() {}

    static Call make(String operation, Targets pick, int size, boolean verify, Measurement m,
            ORB orb) {
        TypeCode ulonglong = orb.get_primitive_tc(TCKind.tk_ulonglong);
        switch (operation) {
            case "roundtrip":
                return () -> {
                    long sent = System.nanoTime();
                    Request request = pick.next()._request("test_method");
                    request.add_in_arg().insert_ulonglong(sent);
                    request.set_return_type(ulonglong);
                    invoke(request);
                    if (request.return_value().extract_ulonglong() != sent) {
                        m.fail(Calls.ECHO_MISMATCH);
                    }
                };
            case "ping":
                return () -> invoke(pick.next()._request("ping"));
            case "octets": {
                byte[] payload = Payloads.pattern(size);
                return () -> {
                    Request request = pick.next()._request("send_octets");
                    Anys.octets(request.add_in_arg(), payload);
                    invoke(request);
                };
            }
            case "octets_out":
                return () -> {
                    Request request = pick.next()._request("get_octets");
                    request.add_in_arg().insert_ulong(size);
                    Any data = request.add_out_arg();
                    data.type(OctetsHelper.type());
                    invoke(request);
                    if (verify) {
                        Calls.checkReply(m, "octets_out", OctetsHelper.extract(data), size);
                    }
                };
            case "octets_inout": {
                byte[] payload = Payloads.pattern(size);
                return () -> {
                    Request request = pick.next()._request("swap_octets");
                    Any data = request.add_inout_arg();
                    Anys.octets(data, payload);
                    invoke(request);
                    if (verify) {
                        Calls.checkReply(m, "octets_inout", OctetsHelper.extract(data), size);
                    }
                };
            }
            default: { // records
                Record[] records = Payloads.records(size);
                return () -> {
                    Request request = pick.next()._request("send_records");
                    Anys.records(request.add_in_arg(), records);
                    invoke(request);
                };
            }
        }
    }

    /** invoke(), then what the ORB left in the request's environment, thrown. */
    static void invoke(Request request) throws Exception {
        request.invoke();
        Exception raised = request.env().exception();
        if (raised != null) {
            throw raised;
        }
    }
}
