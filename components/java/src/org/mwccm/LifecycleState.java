package org.mwccm;

/** Where a component is in its lifecycle; the words are those of mwccm's C++ messages. */
public enum LifecycleState {
    CREATED("created"),
    CONTEXT_SET("context set"),
    CONFIGURED("configured"),
    ACTIVE("active"),
    PASSIVE("passive"),
    REMOVED("removed");

    private final String word;

    LifecycleState(String word) {
        this.word = word;
    }

    @Override
    public String toString() {
        return word;
    }
}
