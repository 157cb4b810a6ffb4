package org.mwccm.sender;

/** Bench::Sink::ReceiverHome's executor. */
final class SinkReceiverHomeExecutor extends Bench.Sink._CCM_ReceiverHomeLocalBase {
    private static final long serialVersionUID = 1L;

    @Override
    public Components.EnterpriseComponent create() {
        return new SinkReceiverExecutor();
    }
}
