package org.mwbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** JSON text as nlohmann::json::dump() prints it, which the C++ drivers' files hold. */
class JsonTest {
    @ParameterizedTest
    @CsvSource({"19.5, 19.5", "20, 20.0", "0.25, 0.25", "0.001, 0.001", "0.0001, 0.0001",
        "0.00001, 1e-05", "1e16, 1e+16", "123456789012345, 123456789012345.0", "-2.5, -2.5",
        "0, 0.0"})
    void doublesAsNlohmannPrintsThem(double value, String text) {
        assertEquals(text, Json.decimal(value));
    }

    @Test
    void keysSortedAtEveryLevelAndNoSpaces() {
        assertEquals("{\"a\":[3,{\"x\":null,\"y\":true}],\"b\":1,\"c\":\"s\"}", Json.compact(
                JsonParser.parseString("{\"c\":\"s\",\"b\":1,\"a\":[3,{\"y\":true,\"x\":null}]}")));
    }

    @Test
    void keysSortedByCodePointAsUtf8BytesSort() {
        // U+FF5E sorts before U+1F600 in UTF-8, after it in UTF-16 code units.
        final String text =
                Json.compact(JsonParser.parseString("{\"\uD83D\uDE00\":1,\"\uFF5E\":2}"));
        assertEquals("{\"\uFF5E\":2,\"\uD83D\uDE00\":1}", text);
    }

    @Test
    void stringsEscapedAsNlohmannEscapesThem() {
        assertEquals("\"q\\\"b\\\\n\\nt\\tc\\u0001/<>é\"",
                Json.compact(Json.tree("q\"b\\n\nt\tc\u0001/<>é")));
    }

    @Test
    void valuesFromJava() {
        final Map<String, Object> config = new TreeMap<>();
        config.put("args", List.of("-ORBInitRef", "x"));
        config.put("port", 0);
        config.put("ratio", 0.5);
        assertEquals("{\"args\":[\"-ORBInitRef\",\"x\"],\"port\":0,\"ratio\":0.5}",
                Json.compact(Json.tree(config)));
    }
}
