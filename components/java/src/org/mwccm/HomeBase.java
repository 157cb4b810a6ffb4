package org.mwccm;

import Components.CCMException;
import Components.CCMObject;
import Components.CreateFailure;
import Components.RemoveFailure;
import java.util.concurrent.atomic.AtomicLong;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * What every keyless home does, as mwccm's C++ HomeServant: creates a
 * component through the generated `<H>HomeServant` (which makes the executor
 * with the user's home executor) and hands it to its container.
 * create_component() names it "<home id>.<n>".
 */
public abstract class HomeBase implements Components.KeylessCCMHomeOperations {
    private final AtomicLong created = new AtomicLong();
    private Container container;
    private String id = "(not installed)";
    private Components.CCMHome reference;

    // Members a subclass or a host calls start with an underscore, as ComponentBase's.

    /** A new component around a new executor of the user's home executor. */
    protected abstract ComponentBase _createComponentServant() throws CCMException;

    /** The home's servant: the IDL compiler's tie of the home interface over this object. */
    protected abstract Servant _makeServant(POA poa);

    public final String _id() {
        return id;
    }

    public final Components.CCMHome _reference() {
        return reference;
    }

    final void install(Container where, String homeId, Components.CCMHome ref) {
        container = where;
        id = homeId;
        reference = ref;
    }

    private Container container() throws CreateFailure {
        if (container == null) {
            throw new CreateFailure("home '" + id + "' is not installed in a container");
        }
        return container;
    }

    @Override
    public CCMObject create_component() throws CreateFailure {
        return create_named_component(id + "." + created.incrementAndGet());
    }

    @Override
    public CCMObject create_named_component(String key) throws CreateFailure {
        Container where = container();
        ComponentBase component;
        try {
            component = _createComponentServant();
        } catch (CCMException e) {
            throw new CreateFailure("home '" + id + "' could not create component '" + key
                    + "': the executor raised CCMException (" + e.message + ")");
        }
        return where.addComponent(this, component, key);
    }

    @Override
    public void remove_component(CCMObject comp) throws RemoveFailure {
        ComponentBase component = container == null ? null : container.componentOf(comp);
        if (component == null) {
            throw new RemoveFailure("home '" + id + "': not a component of its container");
        }
        component.remove();
    }
}
