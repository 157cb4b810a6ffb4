package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The checks of every argument (docs/driver-contract.md section 2): messages and defaults. */
class ArgumentsTest {
    private static final String COLLOCATED =
            "--role collocated --operation roundtrip --transport inproc";
    private static final String SERVER =
            "--role server --operation roundtrip --transport iiop --endpoint-file /tmp/e ";

    @Test
    void defaultsAreTheContracts() {
        final DriverOptions o = Cells.parse("--role", "client", "--operation", "roundtrip",
                "--transport", "iiop", "--endpoint-file", "/tmp/e");
        assertEquals(Role.CLIENT, o.role());
        assertEquals("remote", o.mode());
        assertEquals(10000, o.samples());
        assertEquals(1000, o.warmup());
        assertEquals(1L, o.batch());
        assertNull(o.cpu());
        assertNull(o.output());
        assertEquals(0, o.priority());
        assertEquals(1, o.threads());
        assertEquals(1, o.servants());
        assertEquals(10.0, o.timeoutSeconds());
        assertEquals("127.0.0.1", o.bindAddress());
        assertEquals("/tmp/e", o.endpointFile());
        assertEquals(Map.of(), o.options());
    }

    @Test
    void bothSpellingsOfAValueAndRepeatedOptions() {
        final DriverOptions o = Cells.collocated("--samples=5", "--batch", "auto", "--option",
                "orb=glassfish", "--option=tag=a=b", "--cpu", "0", "--threads", "3");
        assertEquals(5, o.samples());
        assertTrue(o.batchAuto());
        assertEquals(Map.of("orb", "glassfish", "tag", "a=b"), o.options());
        assertEquals("glassfish", o.option("orb", "jacorb"));
        assertEquals("jacorb", Cells.collocated().option("orb", "jacorb"));
        assertEquals(0, o.cpu());
        assertEquals(3, o.threads());
    }

    /** "@" stands for a collocated cell's required arguments, "S " for a server's. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--role x|--role x: unknown role (allowed: server, client, collocated)",
        "--operation roundtrip --transport inproc|--role is required (allowed: server, client, collocated)",
        "--role collocated --operation none --transport inproc|--operation none: unknown to jtest (allowed: octets, roundtrip)",
        "--role collocated --operation roundtrip --transport tcp|--transport tcp: not supported in mode collocated (allowed: inproc)",
        "@ --payload-bytes 8|--payload-bytes 8: operation 'roundtrip' carries no payload (allowed: 0)",
        "--role server --operation roundtrip --transport iiop|--endpoint-file is required for --role server",
        "@ --endpoint-file e|--endpoint-file: a collocated process has no server to find",
        "@ --option nope=1|--option nope: unknown key for jtest (allowed: orb, tag, fault)",
        "@ --option orb=omniorb|--option orb=omniorb: not a value of orb (allowed: jacorb, glassfish)",
        "@ --option orb|--option orb: expected KEY=VALUE",
        "@ --option fault=later|--option fault=later: unknown fault (allowed: exit, crash, hang)",
        "@ --samples 0|--samples 0: at least 1 sample is needed",
        "@ --samples -3|--samples -3: expected a non-negative integer",
        "@ --batch 0|--batch 0: expected a positive integer or 'auto'",
        "@ --threads 0|--threads 0: must be at least 1",
        "@ --servants 5|--servants 5: jtest supports at most 4 (max_servants in --describe)",
        "@ --priority 100|--priority 100: must be 1-99, or 0 for the default policy",
        "@ --timeout 0|--timeout 0: must be a positive number",
        "@ --bind 0.0.0.0|--bind 0.0.0.0: the wildcard address (allowed: one address of this host, such as 127.0.0.1)",
        "@ --bind localhost|--bind localhost: not an IPv4 address (allowed: a dotted-quad literal such as 127.0.0.1)",
        "@ --bind 10.0.0.256|--bind 10.0.0.256: not an IPv4 address (allowed: a dotted-quad literal such as 127.0.0.1)",
        "@ --bind 010.0.0.1|--bind 010.0.0.1: not an IPv4 address (allowed: a dotted-quad literal such as 127.0.0.1)",
        "@ --subscribers 2|--subscribers 2: only the operation 'fanout' has subscribers",
        "@ --frobnicate|--frobnicate: unknown argument (see --help)",
        "@ --samples|--samples: a value is required",
        "@ --load poisson:-3|--load poisson:-3: the rate must be a positive finite number of calls per second",
        "@ --load burst:5|--load burst:5: unknown load (allowed: closed, constant:RATE, poisson:RATE)",
        "@ --load constant:1e1 --batch 4|--load constant:10: an open loop times each call on its own (--batch 1 or auto, not 4)",
        "@ --load constant:10 --threads 2|--load constant:10: an open loop sends from one thread (--threads 1, not 2)",
        "--role collocated --operation octets --transport inproc --load poisson:2.50|--load poisson:2.5: jtest has no open-loop load for operation octets (open_loop: roundtrip)",
        "S --load constant:10|--load constant:10: a server sends no load; only a client or a collocated process takes it",
        "S --load-seed 5|--load-seed: a server sends no load; only a client or a collocated process takes it",
        "@ --load poisson:0.0001|--load poisson:0.0001: the rate must be at least 0.001 calls per second (one call per 1000 s)",
        "@ --load-seed -1|--load-seed -1: expected an integer from 0 to 2^64 - 1",
        "@ --load-seed 18446744073709551616|--load-seed 18446744073709551616: expected an integer from 0 to 2^64 - 1",
    })
    void aBadArgumentIsNamedWithWhatIsAllowed(String args, String message) {
        final UsageException e = assertThrows(UsageException.class,
                () -> Arguments.parse(args.replace("@", COLLOCATED).replace("S ", SERVER)
                        .split(" "), Cells.description()));
        assertEquals(message, e.getMessage());
    }

    @Test
    void anOpenLoadAndItsSeed() {
        final DriverOptions o = Cells.collocated("--load", "poisson:2.5e4", "--batch", "auto",
                "--load-seed", "18446744073709551615");
        assertEquals(new Load(Load.Kind.POISSON, 25000), o.load());
        assertEquals(1L, o.batch()); // auto: an open loop times each call on its own
        assertEquals(-1L, o.loadSeed());
        assertEquals(Load.CLOSED, Cells.collocated().load());
        assertNull(Cells.collocated().loadSeed());
    }

    @Test
    void theMemoryLimitIsRefusedSayingWhy() {
        final UsageException e = assertThrows(UsageException.class,
                () -> Cells.collocated("--memory-limit-mb", "512"));
        assertTrue(e.getMessage().startsWith("--memory-limit-mb 512: not supported by the Java "
                + "harness: the JVM reserves far more address space"), e.getMessage());
    }

    @Test
    void threadsWithoutBoundAndABoundDeclared() {
        assertEquals(64, Cells.collocated("--threads", "64").threads());
        final Description one = Cells.description();
        one.maxThreads = 1;
        final UsageException e = assertThrows(UsageException.class, () -> Arguments.parse(
                new String[] {"--role", "collocated", "--operation", "roundtrip", "--transport",
                    "inproc", "--threads", "2"}, one));
        assertEquals("--threads 2: jtest supports at most 1 (max_threads in --describe)",
                e.getMessage());
    }

    @Test
    void aControlCharacterInAnOptionValueIsRefused() {
        final UsageException e = assertThrows(UsageException.class,
                () -> Cells.collocated("--option", "tag=a\nb"));
        assertEquals("--option tag: a value holds a control character (a newline, a tab...)",
                e.getMessage());
    }

    @Test
    void describeNeedsNoOtherArgument() {
        assertTrue(Arguments.parse(new String[] {"--describe"}, Cells.description()).describe());
    }

    @Test
    void theDescriptionIsTheContractsObject() {
        final JsonObject json = JsonParser.parseString(Json.compact(Cells.description().toJson()))
                .getAsJsonObject();
        assertEquals(1, json.get("contract").getAsInt());
        assertEquals("jtest", json.get("driver").getAsString());
        assertEquals("{\"payload\":true}",
                json.getAsJsonObject("operations").get("octets").toString());
        assertEquals("[\"iiop\",\"uds\"]", json.getAsJsonObject("modes").get("remote").toString());
        assertEquals("[\"jacorb\",\"glassfish\"]",
                json.getAsJsonObject("option_values").get("orb").toString());
        assertEquals(4, json.get("max_servants").getAsInt());
        assertEquals(List.of("max_servants", "host_local"),
                List.of("max_servants", "host_local").stream().filter(json::has).toList());
        assertTrue(!json.has("max_threads") && !json.has("option_transports"));
        assertEquals("[\"roundtrip\"]", json.get("open_loop").toString());
        assertTrue(!json.has("one_way_options"));
        final Description oneWay = Cells.description();
        oneWay.oneWayOptions.put("delivery", List.of("1"));
        assertEquals("{\"delivery\":[\"1\"]}",
                oneWay.toJson().get("one_way_options").toString());
    }

    @Test
    void aBadArgumentExitsWithStatusTwo() {
        assertEquals(2, DriverMain.run(new String[] {"--role", "nobody"}, new IdleDriver()));
    }

    /** A driver the argument checks stop before it runs. */
    private static final class IdleDriver implements Driver {
        @Override
        public Description describe() {
            return Cells.description();
        }

        @Override
        public void serve(DriverOptions options, ServerContext context) {
            throw new AssertionError("not reached");
        }

        @Override
        public void measure(DriverOptions options, Measurement measurement) {
            throw new AssertionError("not reached");
        }
    }
}
