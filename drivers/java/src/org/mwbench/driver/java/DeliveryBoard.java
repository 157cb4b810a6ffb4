package org.mwbench.driver.java;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The delivery board (drivers/common/delivery_board.hpp, the C++ drivers'), where a servant
 * publishes the instant each call entered it, so that the client times the delivery (its
 * send to the servant's entry) on the clock both processes share: System.nanoTime, which
 * on Linux is clock_gettime(CLOCK_MONOTONIC), the C++ drivers' clock. A server creates it as
 * a file next to its endpoint file, {@code <endpoint-file>.delivery}, before it publishes the
 * endpoint, and removes it when it stops; the client maps the same file; collocated, both
 * share one board in memory. 64 bytes, little endian: offset 0 uint32 {@code entries} (raised
 * after {@code entry_ns} is written), offset 4 uint32 {@code waiters} (a C++ client's; Java
 * has no futex, so a Java client polls and never sets it), offset 8 uint64 {@code entry_ns}.
 */
final class DeliveryBoard implements AutoCloseable {
    static final int BYTES = 64;
    private static final int ENTRIES = 0;
    private static final int ENTRY_NS = 8;
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final ByteBuffer memory; // direct: atomic access is allowed on it
    private final Path owned; // removed on close (the server's board), or null

    private DeliveryBoard(ByteBuffer memory, Path owned) {
        this.memory = memory;
        this.owned = owned;
    }

    /** The board of a server whose endpoint file is {@code endpointFile}. */
    static Path pathFor(String endpointFile) {
        return Path.of(endpointFile + ".delivery");
    }

    /** The server's board: the file made (or emptied) and mapped, removed again by close(). */
    static DeliveryBoard create(Path path) throws IOException {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            file.write(ByteBuffer.allocate(BYTES)); // zero-filled: no entries yet
            return new DeliveryBoard(file.map(FileChannel.MapMode.READ_WRITE, 0, BYTES), path);
        } catch (IOException e) {
            Files.deleteIfExists(path);
            throw new IOException("delivery board '" + path + "': " + e.getMessage(), e);
        }
    }

    /** The client's view of a server's board; IOException naming the path if there is none. */
    static DeliveryBoard open(Path path) throws IOException {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (file.size() != BYTES) {
                throw new IOException("not a delivery board: " + file.size() + " bytes, not "
                        + BYTES);
            }
            return new DeliveryBoard(file.map(FileChannel.MapMode.READ_WRITE, 0, BYTES), null);
        } catch (IOException e) {
            throw new IOException("delivery board '" + path + "' (the server makes it with"
                    + " --option delivery=1 or invocation=oneway): " + e.getMessage(), e);
        }
    }

    /** A board in this process's memory, for a collocated servant and client. */
    static DeliveryBoard inProcess() {
        return new DeliveryBoard(ByteBuffer.allocateDirect(BYTES), null);
    }

    /** The servant, first thing on entry: records the time, then counts the entry. */
    void stamp() {
        LONG.setOpaque(memory, ENTRY_NS, System.nanoTime());
        INT.getAndAdd(memory, ENTRIES, 1); // a full fence: entry_ns is visible before it
    }

    /** Servant entries so far (as unsigned 32 bits, wrapping). */
    int entries() {
        return (int) INT.getAcquire(memory, ENTRIES);
    }

    /** The latest entry's time; read after entries() has shown that entry. */
    long entryNs() {
        return (long) LONG.getOpaque(memory, ENTRY_NS);
    }

    /**
     * Waits until entries() has passed {@code count} (wrapping) or {@code deadlineNs}
     * (System.nanoTime) passes; false then. A yielding poll: a C++ servant wakes a futex
     * waiter, which a JVM cannot be, and a Java servant has no futex to wake.
     */
    boolean waitForEntries(int count, long deadlineNs) {
        while (entries() - count < 0) {
            if (System.nanoTime() - deadlineNs > 0) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        if (owned != null) {
            Files.deleteIfExists(owned);
        }
    }
}
