package org.mwbench.driver.java;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The listener's address in IORs of the three ORBs, in both byte orders. */
class IorAddressTest {
    @Test
    void readsAnOmniOrbIorInLittleEndian() {
        // genior IDL:Test/RoundTrip:1.0 127.0.0.2 40123 0
        IorAddress address = IorAddress.of("IOR:010000001700000049444c3a546573742f526f756e64547269"
                + "703a312e300000010000000000000054000000010102000a0000003132372e302e302e3200bb9c0100"
                + "0000300000000200000000000000080000000100000000545441010000001c000000010000000100"
                + "01000100000001000105090101000100000009010100");
        assertEquals("127.0.0.2", address.host);
        assertEquals(40123, address.port);
    }

    @Test
    void readsJacOrbAndGlassFishIorsInBigEndian() {
        // Each ORB's IOR for corbaloc::1.2@127.0.0.3:2809/key.
        String jacorb = "IOR:000000000000001D49444C3A6F6D672E6F72672F434F5242412F4F626A6563743A312E3"
                + "000000000000000010000000000000030000102000000000A3132372E302E302E33000AF900000003"
                + "6B657900000000010000000000000008000000004A414300";
        String glassfish = "IOR:00000000000000010000000000000001000000000000002000010200000000"
                + "0a3132372e302e302e33000af9000000036b65790000000000";
        for (String ior : new String[] {jacorb, glassfish}) {
            IorAddress address = IorAddress.of(ior);
            assertEquals("127.0.0.3", address.host);
            assertEquals(2809, address.port);
        }
    }

    @Test
    void refusesWhatIsNotAStringifiedIor() {
        assertThrows(IllegalArgumentException.class,
                () -> IorAddress.of("corbaloc::1.2@127.0.0.1:2809/0"));
    }
}
