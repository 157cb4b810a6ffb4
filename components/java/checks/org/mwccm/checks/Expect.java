package org.mwccm.checks;

/** The checks' one way to fail: a message naming what was expected, and exit status 1. */
public final class Expect {
    private Expect() {
    }

    @FunctionalInterface
    public interface Call {
        void run() throws Exception;
    }

    public static void that(boolean holds, String what) {
        if (!holds) {
            fail(what);
        }
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!java.util.Objects.equals(expected, actual)) {
            fail(what + ": expected " + expected + ", got " + actual);
        }
    }

    /** `call` raises `type`, whose CCM message (its field `message`) is `message`; returns it. */
    public static <E extends Exception> E raises(Class<E> type, String message, Call call) {
        try {
            call.run();
        } catch (Exception e) {
            if (!type.isInstance(e)) {
                fail("expected " + type.getSimpleName() + " (" + message + "), got " + e);
            }
            String actual = messageOf(e);
            if (message != null && !message.equals(actual)) {
                fail(type.getSimpleName() + ": expected message \"" + message + "\", got \"" + actual + "\"");
            }
            return type.cast(e);
        }
        fail("expected " + type.getSimpleName() + " (" + message + "), nothing raised");
        return null;
    }

    private static String messageOf(Exception e) {
        try {
            return (String) e.getClass().getField("message").get(e);
        } catch (ReflectiveOperationException notCcm) {
            return e.getMessage();
        }
    }

    public static void fail(String what) {
        throw new AssertionError(what);
    }
}
