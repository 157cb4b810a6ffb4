package org.mwccm.ccmperf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import org.mwccm.Container;
import org.mwccm.Orbs;
import org.omg.CORBA.ORB;

/**
 * Hosts CcmPerf's components on whichever ORB the JVM is told
 * (org.omg.CORBA.ORBClass), in one container, as drivers/ccm's component
 * server does (CcmPerfOptions: the arguments).
 *
 * receiver: a Receiver configured by name (verify, payload_bytes), activated,
 * and a Caller home; the endpoint file gets one line "component=IOR:...
 * facet=IOR:... home=IOR:... caller_home=IOR:..." (written whole, by
 * rename), the format of mwbench-driver-ccm's server, so its client and this
 * program's caller both read it. Stops on
 * SIGTERM: removes the components, says "verify: ..." on stderr with
 * verify, exits 0 (1 if the Receiver found a bad payload).
 *
 * caller: reads that endpoint, navigates to the Receiver's facet with
 * provide_facet("control"), connects its Caller's `peer` receptacle to it
 * and calls test_method `--calls` times through the receptacle, checking
 * every echo; then, with `--events N`, subscribes the Receiver's sinks and
 * pushes N events of each kind. Says "caller: ..." on stdout and exits 0.
 */
public final class CcmPerfHost {
    private CcmPerfHost() {
    }

    public static void main(String[] args) throws Exception {
        CcmPerfOptions options = CcmPerfOptions.parse(args);
        ORB orb = Orbs.init(options.orbArguments, options.bind);
        Container container = new Container(orb, Orbs.activeRootPoa(orb), "ccmperf");
        if (options.caller) {
            int status = 1;
            try {
                status = call(orb, container, options);
            } catch (Exception | Error e) { // said, then exit: the ORB's threads would keep the JVM up
                System.err.println("mwccm-ccmperf: error: " + e);
            }
            orb.shutdown(false);
            System.exit(status);
        }
        serve(orb, container, options);
    }

    /**
     * Until SIGTERM: the JVM's shutdown hook (standard API) wakes the main
     * thread, waits for its teardown while the ORB still serves, and ends
     * the process with its status (halt: a hook cannot return one).
     */
    private static void serve(ORB orb, Container container, CcmPerfOptions options) throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        int[] status = {1};
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(status[0]);
        }));
        try {
            status[0] = receive(orb, container, options, stop);
        } catch (Exception | Error e) { // an Error too: else the ORB's threads keep the JVM up
            System.err.println("mwccm-ccmperf: error: " + e);
            done.countDown();
            System.exit(1);
        }
        done.countDown(); // after SIGTERM: the hook ends the process with the status
    }

    private static int receive(ORB orb, Container container, CcmPerfOptions options, CountDownLatch stop)
            throws Exception {
        CcmPerfAssembly assembly = new CcmPerfAssembly(orb, container);
        CcmPerf.Receiver receiver = assembly.createReceiver(options.verify, options.payloadBytes);
        ReceiverExecutor executor = assembly.receiverExecutor(receiver);
        publish(options.endpointFile, "component=" + orb.object_to_string(receiver)
                + " facet=" + orb.object_to_string(receiver.provide_control())
                + " home=" + orb.object_to_string(assembly.receiverHome())
                + " caller_home=" + orb.object_to_string(assembly.callerHome()));
        stop.await();
        container.remove();
        orb.shutdown(true);
        if (options.verify) {
            System.err.println("mwccm-ccmperf: " + executor.counts().summary());
        }
        return executor.counts().bad() == 0 ? 0 : 1;
    }

    private static int call(ORB orb, Container container, CcmPerfOptions options) throws Exception {
        String line = Files.readString(options.endpointFile).trim();
        CcmPerf.Receiver receiver = CcmPerf.ReceiverHelper.narrow(orb.string_to_object(word(line, "component")));
        Test.RoundTrip facet = Test.RoundTripHelper.narrow(receiver.provide_facet("control"));
        CallerExecutor executor = new CcmPerfAssembly(orb, container)
                .createCaller(facet, options.events > 0 ? receiver : null);
        for (long i = 1; i <= options.calls; ++i) {
            long echoed = executor.roundtrip(i);
            if (echoed != i) {
                System.err.println("mwccm-ccmperf: error: test_method(" + i + ") returned " + echoed);
                return 1;
            }
        }
        byte[] payload = Payloads.pattern(options.payloadBytes);
        CcmPerf.ValueEventImpl value = new CcmPerf.ValueEventImpl();
        value.payload = payload;
        CcmPerf.StructEvent struct = new CcmPerf.StructEvent(0, payload);
        for (long i = 1; i <= options.events; ++i) {
            value.number = i;
            struct.number = i;
            executor.pushValue(value);
            executor.pushStruct(struct);
        }
        System.out.println("caller: " + options.calls + " calls, " + options.events + " value events, "
                + options.events + " struct events");
        container.remove();
        return 0;
    }

    /** The value of `key=` in an endpoint line. */
    static String word(String line, String key) {
        for (String word : line.split("\\s+")) {
            if (word.startsWith(key + "=")) {
                return word.substring(key.length() + 1);
            }
        }
        throw new IllegalArgumentException("the endpoint has no " + key + ": " + line);
    }

    private static void publish(Path file, String line) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(partial, line + "\n");
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
