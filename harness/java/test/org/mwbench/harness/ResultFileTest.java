package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The writer against the contract's test vectors, byte for byte, as the C++ harness's test. */
class ResultFileTest {
    private static final Path VECTORS = Path.of(System.getProperty("mwbench.vectors",
            "contract/vectors"));

    @ParameterizedTest
    @ValueSource(strings = {"result-v1", "result-v1-server", "result-v1-series", "result-v1-named",
        "result-v1-open"})
    void writesEachVectorByteForByte(String name) throws IOException {
        final JsonObject expected = JsonParser.parseString(
                Files.readString(VECTORS.resolve(name + ".expected.json"))).getAsJsonObject();
        final JsonObject header = expected.getAsJsonObject("header");
        final long[] samples = longs(expected.getAsJsonArray("samples"));
        final List<NamedSeries> named = new ArrayList<>();
        if (header.has("named_series")) {
            for (JsonElement entry : header.getAsJsonArray("named_series")) {
                final String series = entry.getAsJsonObject().get("name").getAsString();
                named.add(new NamedSeries(series, null,
                        longs(expected.getAsJsonObject("named_series").getAsJsonArray(series))));
            }
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultFile.write(out, header, samples, named);
        assertEquals(Files.readString(VECTORS.resolve(name + ".txt")),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void refusesNamedSeriesTheHeaderDoesNotAnnounce() {
        final JsonObject header = JsonParser.parseString(
                "{\"sample_count\":1,\"named_series\":[{\"name\":\"total\",\"count\":1}]}")
                .getAsJsonObject();
        final long[] one = {5};
        final List<NamedSeries> other = List.of(new NamedSeries("teardown", null, one));
        assertThrows(IllegalStateException.class,
                () -> ResultFile.write(new ByteArrayOutputStream(), header, one, other));
        assertThrows(IllegalStateException.class,
                () -> ResultFile.write(new ByteArrayOutputStream(), header, one, List.of()));
    }

    @Test
    void refusesMoreSamplesAnnouncedThanGiven() {
        final JsonObject header = JsonParser.parseString("{\"sample_count\":3}").getAsJsonObject();
        assertThrows(IllegalStateException.class,
                () -> ResultFile.write(new ByteArrayOutputStream(), header, new long[2],
                        List.of()));
    }

    @Test
    void writesTheFirstSampleCountEntriesOfABuffer() throws IOException {
        final JsonObject header = JsonParser.parseString("{\"sample_count\":3}").getAsJsonObject();
        final long[] buffer = {7, 0, Long.MAX_VALUE, 99, 99};
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultFile.write(out, header, buffer, List.of());
        assertEquals("mwbench-result 1\n{\"sample_count\":3}\n7\n0\n9223372036854775807\nend\n",
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void fileIsRenamedIntoPlace(@TempDir Path dir) throws IOException {
        final Path path = dir.resolve("r.txt");
        final JsonObject header = JsonParser.parseString("{\"sample_count\":1}").getAsJsonObject();
        ResultFile.writeFile(path, header, new long[] {42}, List.of());
        assertEquals("mwbench-result 1\n{\"sample_count\":1}\n42\nend\n", Files.readString(path));
        assertFalse(Files.exists(Path.of(path + ".tmp")));
    }

    @Test
    void anUnwritablePathIsNamed() {
        final JsonObject header = JsonParser.parseString("{\"sample_count\":0}").getAsJsonObject();
        final IOException e = assertThrows(IOException.class, () -> ResultFile.writeFile(
                Path.of("/nonexistent-dir/r.txt"), header, new long[0], List.of()));
        assertTrue(e.getMessage().contains("/nonexistent-dir/r.txt"), e.getMessage());
    }

    private static long[] longs(JsonArray array) {
        final long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).getAsLong();
        }
        return values;
    }
}
