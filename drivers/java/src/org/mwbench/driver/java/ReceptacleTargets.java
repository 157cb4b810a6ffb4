package org.mwbench.driver.java;

import Test.RoundTrip;
import org.mwccm.ccmperf.CallerExecutor;

/**
 * The target of comp-* calls: whatever the Caller's receptacle `peer` holds,
 * read from its context on every call (one volatile read), as CCMPerf's
 * component client calls through its receptacle.
 */
final class ReceptacleTargets extends Targets {
    private final CallerExecutor caller;

    ReceptacleTargets(CallerExecutor caller) {
        super(new RoundTrip[] {caller.receptacle()}, new int[] {0}, 0);
        this.caller = caller;
    }

    @Override
    RoundTrip next() {
        return caller.receptacle();
    }
}
