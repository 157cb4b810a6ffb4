package org.mwccm.ccmperf;

/** The home executor of CcmPerf::ReceiverHome: a new ReceiverExecutor per component. */
public final class ReceiverHomeExecutor extends CcmPerf._CCM_ReceiverHomeLocalBase {
    private static final long serialVersionUID = 1L;

    @Override
    public Components.EnterpriseComponent create() {
        return new ReceiverExecutor();
    }
}
