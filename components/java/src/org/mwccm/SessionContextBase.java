package org.mwccm;

import Components.CCMHome;
import Components.IllegalState;
import Components.SessionContext;
import org.omg.CORBA.LocalObject;

/**
 * The generic part of every context: the component's home and reference.
 * The generated `<C>Context` derives from it and adds the typed operations
 * (get_connection_<receptacle>, push_<source>) that read the component's ports.
 */
public abstract class SessionContextBase extends LocalObject implements SessionContext {
    private static final long serialVersionUID = 1L;
    private final transient ComponentBase component;

    protected SessionContextBase(ComponentBase component) {
        this.component = component;
    }

    @Override
    public CCMHome get_CCM_home() {
        return component.get_ccm_home();
    }

    @Override
    public org.omg.CORBA.Object get_CCM_object() throws IllegalState {
        return component.referenceForContext();
    }
}
