package org.mwccm.ccmperf;

/**
 * The payloads both ends agree on, as drivers/omniorb/omniorb_payload.hpp:
 * the client sends pattern bytes, the servant replies with a different
 * sequence, records carry their index in every field.
 */
public final class Payloads {
    /** `records`: payload_bytes / RECORD_BYTES records, each about this in CDR. */
    public static final int RECORD_BYTES = 32;

    private Payloads() {
    }

    /** Byte `i` of every payload a client sends (period 251, a prime). */
    public static byte patternByte(int i) {
        return (byte) (i % 251);
    }

    /** Byte `i` of every payload a servant sends back: the pattern, descending. */
    public static byte replyByte(int i) {
        return (byte) (250 - i % 251);
    }

    public static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; ++i) {
            bytes[i] = patternByte(i);
        }
        return bytes;
    }

    public static byte[] reply(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; ++i) {
            bytes[i] = replyByte(i);
        }
        return bytes;
    }

    /** The index of the first byte that is not the pattern, or data.length. */
    public static int firstDifference(byte[] data) {
        int at = 0;
        while (at < data.length && data[at] == patternByte(at)) {
            ++at;
        }
        return at;
    }

    public static String recordName(int i) {
        return String.format("record-%08d", i % 100000000);
    }

    public static Test.Record record(int i) {
        return new Test.Record(i, i + 0.5, recordName(i));
    }

    public static boolean recordMatches(Test.Record record, int i) {
        return record.id == i && record.value == i + 0.5 && recordName(i).equals(record.name);
    }
}
