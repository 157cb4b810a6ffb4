package org.mwbench.harness;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The result-file writer (docs/driver-contract.md section 4), pinned byte for byte by
 * contract/vectors/: line 1 the magic word and version, line 2 the header as compact JSON
 * with sorted keys, one sample per line, each named series as a {@code series NAME} line
 * and its values, then {@code end}.
 */
final class ResultFile {
    private ResultFile() {
    }

    /**
     * Writes the first {@code sample_count} (of the header) entries of {@code samples}, and
     * as many of each named series. IllegalStateException if the header's named_series do
     * not announce {@code named} in order: such a file would not read back.
     */
    static void write(OutputStream stream, JsonObject header, long[] samples,
                      List<NamedSeries> named) throws IOException {
        final long count = header.has("sample_count") ? header.get("sample_count").getAsLong() : 0;
        if (count > samples.length) {
            throw new IllegalStateException("result header says sample_count " + count + " but "
                    + samples.length + " samples were given");
        }
        checkNamed(header, named, count);
        final OutputStream out = new BufferedOutputStream(stream, 1 << 16);
        out.write(("mwbench-result " + ResultHeader.CONTRACT_VERSION + "\n" + Json.compact(header)
                + "\n").getBytes(StandardCharsets.UTF_8));
        final byte[] digits = new byte[20];
        writeValues(out, samples, (int) count, digits);
        for (NamedSeries series : named) {
            out.write(("series " + series.name() + "\n").getBytes(StandardCharsets.UTF_8));
            writeValues(out, series.values(), (int) count, digits);
        }
        out.write("end\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Writes to {@code path} through PATH.tmp and a rename: no reader sees half a file. */
    static void writeFile(Path path, JsonObject header, long[] samples, List<NamedSeries> named)
            throws IOException {
        final Path tmp = Path.of(path + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            write(out, header, samples, named);
        } catch (IOException e) {
            throw new IOException("cannot write result file '" + tmp + "': " + e.getMessage(), e);
        }
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Decimal digits without a String per value: a million samples write in milliseconds. */
    private static void writeValues(OutputStream out, long[] values, int count, byte[] digits)
            throws IOException {
        for (int i = 0; i < count; i++) {
            long value = values[i];
            if (value < 0) {
                throw new IllegalStateException("negative sample " + value + " at " + i);
            }
            int at = digits.length;
            digits[--at] = '\n';
            do {
                digits[--at] = (byte) ('0' + value % 10);
                value /= 10;
            } while (value != 0);
            out.write(digits, at, digits.length - at);
        }
    }

    private static void checkNamed(JsonObject header, List<NamedSeries> named, long count) {
        final JsonArray announced = header.has("named_series")
                ? header.getAsJsonArray("named_series") : new JsonArray();
        boolean same = announced.size() == named.size();
        for (int i = 0; same && i < named.size(); i++) {
            final JsonObject entry = announced.get(i).getAsJsonObject();
            final JsonElement name = entry.get("name");
            same = name != null && name.getAsString().equals(named.get(i).name())
                    && entry.get("count").getAsLong() == count
                    && named.get(i).values().length >= count;
        }
        if (!same) {
            throw new IllegalStateException("result header's named_series "
                    + Json.compact(announced) + " does not announce the " + named.size()
                    + " named series given");
        }
    }
}
