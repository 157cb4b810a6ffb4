package org.mwccm.sender;

/** Bench::SenderHome's executor. */
final class SenderHomeExecutor extends Bench._CCM_SenderHomeLocalBase {
    private static final long serialVersionUID = 1L;

    @Override
    public Components.EnterpriseComponent create() {
        return new SenderExecutor();
    }
}
