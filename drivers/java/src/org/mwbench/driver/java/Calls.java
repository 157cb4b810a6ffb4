package org.mwbench.driver.java;

import Test.OctetsHolder;
import Test.Record;
import Test.RoundTrip;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.Measurement.Call;

/**
 * The measured calls, one per operation, each to the servant its thread's
 * Targets picks. Everything a call needs (payload, holder, records) is built
 * here, before the loop; what is left in the call is the stub call and, with
 * verify=1 only, the check of the reply. What the Java mapping makes an ORB
 * allocate is allocated and measured: the array of every sequence it
 * unmarshals, on either end.
 */
final class Calls {
    static final String ECHO_MISMATCH =
            "test_method returned a value other than the send_time it was given";

    private Calls() {}

    static Call make(String operation, Targets pick, int size, boolean verify, Measurement m) {
        switch (operation) {
            case "roundtrip":
                return () -> {
                    long sent = System.nanoTime();
                    if (pick.next().test_method(sent) != sent) {
                        m.fail(Calls.ECHO_MISMATCH);
                    }
                };
            case "ping":
                return () -> pick.next().ping();
            case "octets": {
                byte[] payload = Payloads.pattern(size);
                return () -> pick.next().send_octets(payload);
            }
            case "octets_out": {
                OctetsHolder data = new OctetsHolder();
                return () -> {
                    pick.next().get_octets(size, data);
                    if (verify) {
                        checkReply(m, "octets_out", data.value, size);
                    }
                };
            }
            case "octets_inout":
                return inout(pick, size, verify, m);
            default: { // records: the harness admits no other operation
                Record[] records = Payloads.records(size);
                return () -> pick.next().send_records(records);
            }
        }
    }

    /**
     * After a call the holder holds the servant's reply (a new array, or a
     * collocated servant's own), which is sent again next time: only verify=1
     * needs the request restored.
     */
    private static Call inout(Targets pick, int size, boolean verify, Measurement m) {
        byte[] request = Payloads.pattern(size);
        OctetsHolder data = new OctetsHolder(request.clone());
        return () -> {
            RoundTrip target = pick.next();
            target.swap_octets(data);
            if (verify) {
                checkReply(m, "octets_inout", data.value, size);
                data.value = request.clone();
            }
        };
    }

    /** With verify=1: the reply of octets_out or octets_inout, its length and the servant's pattern. */
    static void checkReply(Measurement m, String operation, byte[] data, int expected) {
        if (data.length != expected) {
            m.fail(operation + ": reply of " + data.length + " bytes, expected " + expected
                    + " (verify=1)");
            return;
        }
        int at = Payloads.firstReplyDifference(data);
        if (at != data.length) {
            m.fail(operation + ": reply differs from the servant's pattern at byte " + at + " of "
                    + data.length + " (verify=1)");
        }
    }
}
