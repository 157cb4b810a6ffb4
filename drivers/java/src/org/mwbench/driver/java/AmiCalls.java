package org.mwbench.driver.java;

import Test.Record;
import Test._RoundTripStub;
import org.mwbench.harness.Measurement;
import org.mwbench.harness.Measurement.Call;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * invocation=ami_callback (JacORB only; the stubs of roundtrip-ami-stubs.jar): each call is
 * the stub's sendc_ operation with the one ReplyHandler of the thread (AmiReplies), then a
 * wait for the handler. The handler is a servant of the client's root POA, whose manager the
 * client activates (JacORB then listens on --bind for nothing but what it dispatches).
 */
final class AmiCalls {
    private AmiCalls() {}

    /** The handler servant, activated; its reference is what sendc_ calls take. */
    static Test.AMI_RoundTripHandler activate(ORB orb, AmiReplies replies) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        return Test.AMI_RoundTripHandlerHelper.narrow(
                root.id_to_reference(root.activate_object(replies)));
    }

    static Call make(String operation, Targets pick, int size, boolean verify, Measurement m,
            AmiReplies replies, Test.AMI_RoundTripHandler handler) {
        switch (operation) {
            case "roundtrip":
                return () -> {
                    long sent = System.nanoTime();
                    stub(pick).sendc_test_method(handler, sent);
                    replies.await();
                    if (replies.value != sent) {
                        m.fail(Calls.ECHO_MISMATCH);
                    }
                };
            case "ping":
                return () -> {
                    stub(pick).sendc_ping(handler);
                    replies.await();
                };
            case "octets": {
                byte[] payload = Payloads.pattern(size);
                return () -> {
                    stub(pick).sendc_send_octets(handler, payload);
                    replies.await();
                };
            }
            case "octets_out":
                return () -> {
                    stub(pick).sendc_get_octets(handler, size);
                    replies.await();
                    if (verify) {
                        Calls.checkReply(m, "octets_out", replies.data, size);
                    }
                };
            case "octets_inout": {
                byte[] request = Payloads.pattern(size);
                return () -> {
                    stub(pick).sendc_swap_octets(handler, request);
                    replies.await();
                    if (verify) {
                        Calls.checkReply(m, "octets_inout", replies.data, size);
                    }
                };
            }
            default: { // records
                Record[] records = Payloads.records(size);
                return () -> {
                    stub(pick).sendc_send_records(handler, records);
                    replies.await();
                };
            }
        }
    }

    /** JacORB's stub behind the reference: where its sendc_ operations are. */
    static _RoundTripStub stub(Targets pick) {
        return (_RoundTripStub) pick.next();
    }
}
