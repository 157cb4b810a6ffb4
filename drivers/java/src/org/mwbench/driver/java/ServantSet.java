package org.mwbench.driver.java;

import java.util.ArrayList;
import java.util.List;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.Servant;

/** The --servants servants of one process, which share one reply. */
final class ServantSet {
    private final RoundTripServant.Shared shared;
    private final List<RoundTripServant> servants = new ArrayList<>();

    private final ORB orb; // the DSI's argument lists; null for static skeletons

    /** {@code dsiOrb}: the ORB of DSI servants, or null for the static skeletons. */
    ServantSet(boolean verify, int payloadBytes, DeliveryBoard board, ORB dsiOrb) {
        this.shared = new RoundTripServant.Shared(verify, payloadBytes, board);
        this.orb = dsiOrb;
    }

    /** A new servant: the IDL compiler's skeleton, or the DSI's in front of the same code. */
    Servant add() {
        RoundTripServant servant = new RoundTripServant(shared, orb == null);
        servants.add(servant);
        return orb == null ? servant : new DsiServant(servant, orb, shared.board);
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
