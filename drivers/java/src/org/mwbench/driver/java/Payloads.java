package org.mwbench.driver.java;

import Test.Record;

/**
 * The payloads both ends agree on, the same as the omniorb driver's
 * (drivers/omniorb/omniorb_payload.hpp), so that verify=1 checks every byte
 * and every field in both directions, whichever ORB or language is at the
 * other end.
 *
 * <p>A client sends {@link #patternByte}; a servant sends back
 * {@link #replyByte}, a different sequence, so that a reply that merely
 * echoed the request would not pass. Records carry their index in every
 * field. All of it is built before the measured loop.
 */
final class Payloads {
    /** The size of a Record in CDR, about: see RoundTrip.idl. */
    static final int RECORD_BYTES = 32;

    private Payloads() {}

    /** Byte i of every payload a client sends; 251 is prime, so a shifted chunk never lines up. */
    static byte patternByte(int i) {
        return (byte) (i % 251);
    }

    /** Byte i of every payload a servant sends back: the pattern, descending. */
    static byte replyByte(int i) {
        return (byte) (250 - i % 251);
    }

    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = patternByte(i);
        }
        return bytes;
    }

    static byte[] reply(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = replyByte(i);
        }
        return bytes;
    }

    /** The index of the first byte of data that differs from the pattern, or data.length. */
    static int firstPatternDifference(byte[] data) {
        int at = 0;
        while (at < data.length && data[at] == patternByte(at)) {
            at++;
        }
        return at;
    }

    /** The index of the first byte of data that differs from the reply, or data.length. */
    static int firstReplyDifference(byte[] data) {
        int at = 0;
        while (at < data.length && data[at] == replyByte(at)) {
            at++;
        }
        return at;
    }

    /** --payload-bytes / RECORD_BYTES records, record i made by {@link #record}. */
    static Record[] records(long payloadBytes) {
        Record[] records = new Record[(int) (payloadBytes / RECORD_BYTES)];
        for (int i = 0; i < records.length; i++) {
            records[i] = record(i);
        }
        return records;
    }

    /** Record i: id i, value i + 0.5, name "record-" and i in 8 digits (15 characters). */
    static Record record(int i) {
        return new Record(i, i + 0.5, recordName(i));
    }

    static boolean recordMatches(Record record, int i) {
        return record.id == i && record.value == i + 0.5 && recordName(i).equals(record.name);
    }

    private static String recordName(int i) {
        return String.format("record-%08d", i % 100_000_000);
    }
}
