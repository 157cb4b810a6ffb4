package org.mwbench.driver.java;

import Test.AMI_RoundTripHandlerPOA;
import java.util.concurrent.locks.LockSupport;
import org.mwbench.harness.Measurement;
import org.omg.Messaging.ExceptionHolder;

/**
 * invocation=ami_callback (JacORB): the ReplyHandler servant that JacORB calls with each
 * reply of a sendc_ call, on its own thread. Closed loop: the measuring thread sends one
 * call, then sleeps in {@link #await} until the handler wakes it (a park, never a spin).
 * Open loop ({@link #routeToHarness}): test_method's reply carries the call's number (the
 * echoed send_time), which the handler hands to Measurement.completed().
 */
final class AmiReplies extends AMI_RoundTripHandlerPOA {
    private final Measurement m;
    private volatile Thread waiter;
    private volatile boolean replied;
    private volatile boolean open;
    // The latest reply's values, read by the waiter after await().
    volatile long value;
    volatile byte[] data;

    AmiReplies(Measurement m) {
        this.m = m;
    }

    /** From now on every test_method reply completes the open loop's call of its number. */
    void routeToHarness() {
        open = true;
    }

    /** The measuring thread, after its sendc_ call: sleeps until the reply has arrived. */
    void await() {
        waiter = Thread.currentThread();
        while (!replied) {
            LockSupport.park(this);
        }
        replied = false;
    }

    private void reply() {
        replied = true;
        LockSupport.unpark(waiter);
    }

    @Override
    public void test_method(long amiReturnVal) {
        if (open) {
            m.completed(amiReturnVal);
            return;
        }
        value = amiReturnVal;
        reply();
    }

    @Override
    public void ping() {
        reply();
    }

    /** JacORB's IDL compiler makes handler operations for oneway ones too; never called. */
    @Override
    public void ping_oneway() {
        reply();
    }

    @Override
    public void ping_oneway_excep(ExceptionHolder holder) {
        failed("ping_oneway", holder);
    }

    @Override
    public void send_octets() {
        reply();
    }

    @Override
    public void get_octets(byte[] reply) {
        data = reply;
        reply();
    }

    @Override
    public void swap_octets(byte[] reply) {
        data = reply;
        reply();
    }

    @Override
    public void send_records() {
        reply();
    }

    @Override
    public void test_method_excep(ExceptionHolder holder) {
        failed("test_method", holder);
    }

    @Override
    public void ping_excep(ExceptionHolder holder) {
        failed("ping", holder);
    }

    @Override
    public void send_octets_excep(ExceptionHolder holder) {
        failed("send_octets", holder);
    }

    @Override
    public void get_octets_excep(ExceptionHolder holder) {
        failed("get_octets", holder);
    }

    @Override
    public void swap_octets_excep(ExceptionHolder holder) {
        failed("swap_octets", holder);
    }

    @Override
    public void send_records_excep(ExceptionHolder holder) {
        failed("send_records", holder);
    }

    /** An exception instead of a reply: the run fails with it, and the waiter goes on. */
    private void failed(String operation, ExceptionHolder holder) {
        String what;
        try {
            holder.raise_exception();
            what = "an exception holder without an exception";
        } catch (Exception e) {
            what = FirstCall.describe(e);
        }
        m.fail(operation + " (ami_callback) raised " + what);
        reply();
    }
}
