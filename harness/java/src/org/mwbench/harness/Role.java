package org.mwbench.harness;

/** What a driver process is (--role). */
public enum Role {
    SERVER, CLIENT, COLLOCATED;

    /** "server", "client" or "collocated", as on the command line and in the result header. */
    public String text() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** "collocated" for a collocated process, "remote" for the two ends of a remote cell. */
    public String mode() {
        return this == COLLOCATED ? "collocated" : "remote";
    }
}
