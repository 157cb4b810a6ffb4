package org.mwbench.harness;

/**
 * The offered load of a client (--load, docs/driver-contract.md section 2): {@code closed}
 * (send, wait for the reply, send again), or an open loop that sends on a schedule of
 * intended start times whatever the replies do, {@code constant:RATE} (one call every
 * 1/RATE seconds) or {@code poisson:RATE} (exponential gaps of mean 1/RATE), RATE in calls
 * per second.
 *
 * @param ratePerS calls per second; 0 for a closed loop
 */
public record Load(Kind kind, double ratePerS) {
    /** How the calls are started. */
    public enum Kind {
        CLOSED, CONSTANT, POISSON;

        /** The word of --load and of the header's {@code load.kind}. */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public static final Load CLOSED = new Load(Kind.CLOSED, 0);
    /** The lowest rate: one call per 1000 s. */
    public static final double MIN_RATE_PER_S = 1e-3;

    /**
     * Parses --load's value; throws UsageException naming --load and the value for anything
     * but {@code closed}, {@code constant:RATE} or {@code poisson:RATE} with RATE a positive
     * finite decimal number.
     */
    public static Load parse(String text) {
        if (text.equals("closed")) {
            return CLOSED;
        }
        final int colon = text.indexOf(':');
        final String kind = colon < 0 ? text : text.substring(0, colon);
        final Kind parsed = switch (kind) {
            case "constant" -> Kind.CONSTANT;
            case "poisson" -> Kind.POISSON;
            default -> throw new UsageException("--load " + Arguments.shortened(text)
                    + ": unknown load (allowed: closed, constant:RATE, poisson:RATE)");
        };
        final String rate = colon < 0 ? "" : text.substring(colon + 1);
        double value = Double.NaN;
        // A decimal number only: Java would also read "NaN", "Infinity", hex and a 'd' suffix.
        if (rate.matches("-?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) {
            value = Double.parseDouble(rate);
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new UsageException("--load " + Arguments.shortened(text)
                    + ": the rate must be a positive finite number of calls per second");
        }
        if (value < MIN_RATE_PER_S) {
            throw new UsageException("--load " + Arguments.shortened(text)
                    + ": the rate must be at least 0.001 calls per second (one call per 1000 s)");
        }
        return new Load(parsed, value);
    }

    /** Whether calls are sent on a schedule (constant or poisson), not one after a reply. */
    public boolean open() {
        return kind != Kind.CLOSED;
    }

    /** The mean gap between intended start times, in nanoseconds (1/RATE); 0 closed. */
    public double meanGapNs() {
        return open() ? 1e9 / ratePerS : 0;
    }

    /**
     * As --load takes it, and as the C++ harness prints it: {@code closed},
     * {@code poisson:1000}, {@code constant:2500.5} (the shortest decimal that reads back).
     */
    @Override
    public String toString() {
        if (!open()) {
            return "closed";
        }
        return kind.text() + ":" + new java.math.BigDecimal(Double.toString(ratePerS))
                .stripTrailingZeros().toPlainString();
    }
}
