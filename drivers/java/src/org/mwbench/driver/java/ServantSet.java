package org.mwbench.driver.java;

import java.util.ArrayList;
import java.util.List;

/** The --servants servants of one process, which share one reply. */
final class ServantSet {
    private final RoundTripServant.Shared shared;
    private final List<RoundTripServant> servants = new ArrayList<>();

    ServantSet(boolean verify, int payloadBytes) {
        this.shared = new RoundTripServant.Shared(verify, payloadBytes);
    }

    RoundTripServant add() {
        RoundTripServant servant = new RoundTripServant(shared);
        servants.add(servant);
        return servant;
    }

    long badPayloads() {
        return shared.badPayloads.get();
    }

    /**
     * With verify=1: "verify: 10 servants, 221 calls, 0 never called (fewest
     * 12, most 31)", the omniorb driver's line, for the tests of target=random.
     */
    String callSummary() {
        long total = 0;
        long never = 0;
        long fewest = servants.isEmpty() ? 0 : Long.MAX_VALUE;
        long most = 0;
        for (RoundTripServant servant : servants) {
            long calls = servant.calls();
            total += calls;
            never += calls == 0 ? 1 : 0;
            fewest = Math.min(fewest, calls);
            most = Math.max(most, calls);
        }
        return "verify: " + servants.size() + " servants, " + total + " calls, " + never
                + " never called (fewest " + fewest + ", most " + most + ")";
    }
}
