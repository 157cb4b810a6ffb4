package org.mwbench.driver.java;

import Test.RoundTrip;
import Test.RoundTripHelper;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.omg.CORBA.SystemException;

/**
 * The one untimed call before the warm-up, to servant 0: it opens the first
 * connection (and follows the GlassFish server's forward), checks that the
 * endpoint is a Test::RoundTrip (the references are made without asking),
 * and fails within --timeout if the server never answers. It runs on a
 * thread of its own that the driver waits for with that deadline, because
 * the two ORBs set call timeouts in ways of their own; the measured calls
 * have none.
 */
final class FirstCall {
    private FirstCall() {}

    static void check(RoundTrip target, double timeoutSeconds) throws Exception {
        FutureTask<Void> call = new FutureTask<>(() -> {
            if (!target._is_a(RoundTripHelper.id())) {
                throw new IllegalStateException("the endpoint is not a " + RoundTripHelper.id());
            }
            target.ping();
            return null;
        });
        Thread thread = new Thread(call, "mwbench-first-call");
        thread.setDaemon(true); // a call that never returns must not keep the JVM up
        thread.start();
        try {
            call.get((long) (timeoutSeconds * 1e9), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("first call to the servant: no reply within --timeout "
                    + timeoutSeconds + " s");
        } catch (ExecutionException e) {
            throw new IllegalStateException("first call to the servant failed: "
                    + describe(e.getCause()), e.getCause());
        }
    }

    /** "org.omg.CORBA.TRANSIENT (minor 0x4f4d0002, COMPLETED_NO)", or the exception. */
    static String describe(Throwable e) {
        if (e instanceof SystemException) {
            SystemException system = (SystemException) e;
            String completed = new String[] {"COMPLETED_YES", "COMPLETED_NO", "COMPLETED_MAYBE"}
                    [system.completed.value()];
            return e.getClass().getName() + " (minor 0x" + Integer.toHexString(system.minor)
                    + ", " + completed + ")";
        }
        return String.valueOf(e);
    }
}
