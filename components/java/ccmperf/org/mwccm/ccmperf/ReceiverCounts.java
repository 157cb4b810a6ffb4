package org.mwccm.ccmperf;

import java.util.concurrent.atomic.AtomicLong;

/** What a Receiver counted and found wrong (with verify on), as drivers/ccm's ReceiverCounts. */
public final class ReceiverCounts {
    final AtomicLong calls = new AtomicLong();
    final AtomicLong valueEvents = new AtomicLong();
    final AtomicLong structEvents = new AtomicLong();
    final AtomicLong bad = new AtomicLong();

    public long calls() {
        return calls.get();
    }

    public long bad() {
        return bad.get();
    }

    /** "verify: 12 calls, 0 value events, 0 struct events, 0 bad", as the C++ Receiver says it. */
    public String summary() {
        return "verify: " + calls.get() + " calls, " + valueEvents.get() + " value events, "
                + structEvents.get() + " struct events, " + bad.get() + " bad";
    }

    /** Counts a refusal, says the first, and fails the call (BAD_PARAM, as the C++ servant). */
    org.omg.CORBA.BAD_PARAM reject(String what) {
        if (bad.getAndIncrement() == 0) {
            System.err.println("mwccm-ccmperf: error: " + what);
        }
        return new org.omg.CORBA.BAD_PARAM(what, 0, org.omg.CORBA.CompletionStatus.COMPLETED_YES);
    }
}
