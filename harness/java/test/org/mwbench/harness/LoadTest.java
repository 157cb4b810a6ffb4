package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --load's values: the three kinds, and every rate that is not a positive finite number. */
class LoadTest {
    @Test
    void theThreeKinds() {
        assertFalse(Load.parse("closed").open());
        assertEquals(new Load(Load.Kind.CONSTANT, 1000), Load.parse("constant:1000"));
        assertEquals(new Load(Load.Kind.POISSON, 25000), Load.parse("poisson:2.5e4"));
        assertEquals(1e6, Load.parse("poisson:1000").meanGapNs());
        assertEquals("poisson:1000", Load.parse("poisson:1e3").toString());
        assertEquals("constant:2.5", Load.parse("constant:2.5").toString());
        assertTrue(Load.parse("constant:.5").open());
        assertEquals("poisson:12345678.5", Load.parse("poisson:12345678.5").toString());
        assertEquals("constant:0.001", Load.parse("constant:1e-3").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"poisson:-3", "poisson:0", "constant:", "constant:inf",
        "constant:Infinity", "poisson:NaN", "poisson:1e400", "constant:0x10", "constant:1d",
        "poisson:abc", "constant:+5"})
    void aRateThatIsNotAPositiveFiniteNumberIsRefused(String text) {
        final UsageException e = assertThrows(UsageException.class, () -> Load.parse(text));
        assertEquals("--load " + text
                + ": the rate must be a positive finite number of calls per second",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"open", "", "closed:5", "Poisson:5", "constant"})
    void anUnknownKindIsRefused(String text) {
        final UsageException e = assertThrows(UsageException.class, () -> Load.parse(text));
        assertTrue(e.getMessage().startsWith("--load "), e.getMessage());
    }
}
