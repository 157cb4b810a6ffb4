package org.mwccm.ccmperf;

/** The home executor of CcmPerf::CallerHome: a new CallerExecutor per component. */
public final class CallerHomeExecutor extends CcmPerf._CCM_CallerHomeLocalBase {
    private static final long serialVersionUID = 1L;

    @Override
    public Components.EnterpriseComponent create() {
        return new CallerExecutor();
    }
}
