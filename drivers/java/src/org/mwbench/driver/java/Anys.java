package org.mwbench.driver.java;

import Test.OctetsHelper;
import Test.Record;
import Test.RecordsHelper;
import org.omg.CORBA.Any;
import org.omg.CORBA.portable.OutputStream;

/**
 * Sequences into Anys, on both ORBs: marshalled into a stream of the Any's ORB, then read
 * into the Any with read_value(). The IDL compiler's Helper.insert only writes to
 * create_output_stream(), which is the Any itself on JacORB but a stream of its own on the
 * GlassFish ORB (which then marshals no value), and insert_Streamable() does not replace the
 * value a GlassFish ServerRequest unmarshalled into an inout Any.
 */
final class Anys {
    private Anys() {}

    static void octets(Any any, byte[] value) {
        OutputStream out = any.create_output_stream();
        OctetsHelper.write(out, value);
        any.read_value(out.create_input_stream(), OctetsHelper.type());
    }

    static void records(Any any, Record[] value) {
        OutputStream out = any.create_output_stream();
        RecordsHelper.write(out, value);
        any.read_value(out.create_input_stream(), RecordsHelper.type());
    }
}
