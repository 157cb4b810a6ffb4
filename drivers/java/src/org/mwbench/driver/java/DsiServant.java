package org.mwbench.driver.java;

import Test.OctetsHelper;
import Test.OctetsHolder;
import Test.RecordsHelper;
import Test.RoundTripHelper;
import org.omg.CORBA.ARG_IN;
import org.omg.CORBA.ARG_INOUT;
import org.omg.CORBA.ARG_OUT;
import org.omg.CORBA.Any;
import org.omg.CORBA.BAD_OPERATION;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NVList;
import org.omg.CORBA.ORB;
import org.omg.CORBA.ServerRequest;
import org.omg.CORBA.TCKind;
import org.omg.PortableServer.DynamicImplementation;
import org.omg.PortableServer.POA;

/**
 * dispatch=dsi: Test::RoundTrip through the Dynamic Skeleton Interface. invoke() gets every
 * request, builds the argument list its operation's name calls for, has the ORB unmarshal
 * the arguments into it, and hands them to a RoundTripServant's code (never activated
 * itself), so that both dispatches do the same work once the arguments are in. The lists
 * and Anys are new per request: the DSI's own cost, as the DII's Requests are the client's.
 */
final class DsiServant extends DynamicImplementation {
    private static final String[] INTERFACES = {RoundTripHelper.id()};

    private final RoundTripServant work;
    private final ORB orb;
    private final DeliveryBoard board; // stamped on entry, or null

    DsiServant(RoundTripServant work, ORB orb, DeliveryBoard board) {
        this.work = work;
        this.orb = orb;
        this.board = board;
    }

    @Override
    public String[] _all_interfaces(POA poa, byte[] objectId) {
        return INTERFACES;
    }

    @Override
    public void invoke(ServerRequest request) {
        if (board != null) {
            board.stamp();
        }
        final NVList arguments = orb.create_list(2);
        switch (request.operation()) {
            case "test_method" -> {
                final Any sendTime = in(arguments, orb.get_primitive_tc(TCKind.tk_ulonglong));
                request.arguments(arguments);
                final Any result = orb.create_any();
                result.insert_ulonglong(work.test_method(sendTime.extract_ulonglong()));
                request.set_result(result);
            }
            case "ping" -> {
                request.arguments(arguments);
                work.ping();
            }
            case "ping_oneway" -> {
                request.arguments(arguments);
                work.ping_oneway();
            }
            case "send_octets" -> {
                final Any data = in(arguments, OctetsHelper.type());
                request.arguments(arguments);
                work.send_octets(OctetsHelper.extract(data));
            }
            case "get_octets" -> {
                final Any size = in(arguments, orb.get_primitive_tc(TCKind.tk_ulong));
                final Any data = orb.create_any();
                data.type(OctetsHelper.type());
                arguments.add_value("data", data, ARG_OUT.value);
                request.arguments(arguments);
                final OctetsHolder reply = new OctetsHolder();
                work.get_octets(size.extract_ulong(), reply);
                Anys.octets(data, reply.value);
            }
            case "swap_octets" -> {
                final Any data = orb.create_any();
                data.type(OctetsHelper.type());
                arguments.add_value("data", data, ARG_INOUT.value);
                request.arguments(arguments);
                final OctetsHolder swapped = new OctetsHolder(OctetsHelper.extract(data));
                work.swap_octets(swapped);
                Anys.octets(data, swapped.value);
            }
            case "send_records" -> {
                final Any data = in(arguments, RecordsHelper.type());
                request.arguments(arguments);
                work.send_records(RecordsHelper.extract(data));
            }
            default -> throw new BAD_OPERATION(0, CompletionStatus.COMPLETED_NO);
        }
    }

    /** An in argument of type {@code type}, added to {@code arguments}. */
    private Any in(NVList arguments, org.omg.CORBA.TypeCode type) {
        final Any value = orb.create_any();
        value.type(type);
        arguments.add_value("", value, ARG_IN.value);
        return value;
    }
}
