package org.mwbench.harness;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON text as the C++ harness writes it (nlohmann::json::dump()): compact, the keys of
 * every object sorted by their UTF-8 bytes, integers as integers, other numbers in the
 * shortest form that reads back, non-ASCII text as UTF-8. contract/vectors/ pins it byte
 * for byte. Gson builds and parses the trees; it cannot sort keys, hence this writer.
 */
final class Json {
    private static final Gson GSON = new Gson();

    private Json() {
    }

    /** A String, Number, Boolean, Map, List, array or Gson JsonElement as a JSON tree. */
    static JsonElement tree(Object value) {
        if (value instanceof JsonElement element) {
            return element.deepCopy();
        }
        return value == null ? JsonNull.INSTANCE : GSON.toJsonTree(value);
    }

    /** The compact text of {@code element}, keys sorted. */
    static String compact(JsonElement element) {
        final StringBuilder out = new StringBuilder(256);
        write(element, out);
        return out.toString();
    }

    private static void write(JsonElement element, StringBuilder out) {
        if (element == null || element.isJsonNull()) {
            out.append("null");
        } else if (element.isJsonObject()) {
            writeObject(element.getAsJsonObject(), out);
        } else if (element.isJsonArray()) {
            final JsonArray array = element.getAsJsonArray();
            out.append('[');
            for (int i = 0; i < array.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(array.get(i), out);
            }
            out.append(']');
        } else {
            writePrimitive(element.getAsJsonPrimitive(), out);
        }
    }

    private static void writeObject(JsonObject object, StringBuilder out) {
        final List<Map.Entry<String, JsonElement>> entries = new ArrayList<>(object.entrySet());
        // Code point order is UTF-8 byte order, which is std::map's order in nlohmann.
        entries.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonElement> entry : entries) {
            if (!first) {
                out.append(',');
            }
            first = false;
            writeString(entry.getKey(), out);
            out.append(':');
            write(entry.getValue(), out);
        }
        out.append('}');
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            final int ca = a.codePointAt(i);
            final int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static void writePrimitive(JsonPrimitive primitive, StringBuilder out) {
        if (primitive.isBoolean()) {
            out.append(primitive.getAsBoolean());
        } else if (primitive.isString()) {
            writeString(primitive.getAsString(), out);
        } else {
            out.append(number(primitive.getAsNumber()));
        }
    }

    private static String number(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
                || n instanceof BigInteger) {
            return n.toString();
        }
        if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
            return decimal(n.doubleValue());
        }
        // Parsed text (Gson's LazilyParsedNumber): an integer stays one.
        final String text = n.toString();
        if (text.matches("-?[0-9]+")) {
            return new BigInteger(text).toString();
        }
        return decimal(Double.parseDouble(text));
    }

    /**
     * A double as nlohmann prints it: shortest digits; fixed notation while the decimal
     * exponent is within -4 .. 15 (with ".0" on an integral value), else d.ddde+XX.
     */
    static String decimal(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        if (value == 0) {
            return (1 / value < 0) ? "-0.0" : "0.0";
        }
        final BigDecimal exact =
                new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
        final String digits = exact.unscaledValue().toString();
        final int point = digits.length() - exact.scale(); // digits before the decimal point
        final StringBuilder out = new StringBuilder(value < 0 ? "-" : "");
        if (point > 0 && point <= 15) {
            if (digits.length() <= point) {
                out.append(digits).append("0".repeat(point - digits.length())).append(".0");
            } else {
                out.append(digits, 0, point).append('.').append(digits, point, digits.length());
            }
        } else if (point <= 0 && point > -4) {
            out.append("0.").append("0".repeat(-point)).append(digits);
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            final int exponent = point - 1;
            out.append('e').append(exponent < 0 ? '-' : '+');
            out.append(String.format("%02d", Math.abs(exponent)));
        }
        return out.toString();
    }

    private static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
