package org.mwbench.driver.java;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The delivery board: the C++ drivers' layout, two mappings of one file, the server's file. */
class DeliveryBoardTest {
    @Test
    void aStampIsSeenThroughAnotherMappingInTheCppLayout(@TempDir Path dir) throws IOException {
        final Path path = DeliveryBoard.pathFor(dir.resolve("endpoint").toString());
        assertEquals(dir.resolve("endpoint.delivery"), path);
        try (DeliveryBoard server = DeliveryBoard.create(path);
             DeliveryBoard client = DeliveryBoard.open(path)) {
            assertEquals(0, client.entries());
            final long before = System.nanoTime();
            server.stamp();
            server.stamp();
            assertEquals(2, client.entries());
            assertTrue(client.entryNs() >= before);
            // Offset 0: uint32 entries; offset 8: uint64 entry_ns; little endian.
            final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path))
                    .order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(DeliveryBoard.BYTES, bytes.capacity());
            assertEquals(2, bytes.getInt(0));
            assertEquals(0, bytes.getInt(4)); // waiters: a Java client never sets it
            assertEquals(client.entryNs(), bytes.getLong(8));
        }
        assertFalse(Files.exists(path)); // the server's board is removed when it closes
    }

    @Test
    void aWaitEndsAtTheEntryOrAtTheDeadline() throws Exception {
        final DeliveryBoard board = DeliveryBoard.inProcess();
        assertFalse(board.waitForEntries(1, System.nanoTime()));
        final Thread servant = new Thread(board::stamp);
        servant.start();
        assertTrue(board.waitForEntries(1, System.nanoTime() + 60_000_000_000L));
        servant.join();
        assertEquals(1, board.entries());
    }

    @Test
    void aClientWithoutABoardIsToldWhere(@TempDir Path dir) {
        final Path path = dir.resolve("endpoint.delivery");
        final IOException e = assertThrows(IOException.class, () -> DeliveryBoard.open(path));
        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("--option delivery=1"), e.getMessage());
    }
}
