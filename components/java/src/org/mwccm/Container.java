package org.mwccm;

import Components.CCMException;
import Components.CCMHome;
import Components.CCMHomeHelper;
import Components.CCMObject;
import Components.CreateFailure;
import Components.IllegalState;
import Components.RemoveFailure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.ServantRetentionPolicyValue;

/**
 * A session container, as mwccm's C++ Container: one POA of its own (a child
 * of the root POA, RETAIN and USER_ID, sharing the root's manager), in which
 * each home is "home:<id>", each component its key and each facet or sink
 * "<key>#<port>". Not a CORBA object here (no Components::Deployment
 * servant): a Java program holds it and installs its homes itself.
 */
public final class Container {
    private final String name;
    private final POA poa;
    private final Map<String, HomeBase> homes = new LinkedHashMap<>();
    private final Map<String, ComponentBase> components = new LinkedHashMap<>();

    public Container(ORB orb, POA root, String name) throws org.omg.CORBA.UserException {
        this.name = name;
        Cookies.register(orb);
        Policy[] policies = {
            root.create_servant_retention_policy(ServantRetentionPolicyValue.RETAIN),
            root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID),
        };
        poa = root.create_POA("mwccm-container-" + name, root.the_POAManager(), policies);
        for (Policy policy : policies) {
            policy.destroy();
        }
    }

    public String name() {
        return name;
    }

    public POA poa() {
        return poa;
    }

    /** Activates `home` as "home:<id>" and returns its reference. */
    public CCMHome installHome(String id, HomeBase home) throws org.omg.CORBA.UserException {
        synchronized (this) {
            if (homes.putIfAbsent(id, home) != null) {
                throw new IllegalArgumentException("container '" + name + "' already has a home '" + id + "'");
            }
        }
        byte[] oid = ("home:" + id).getBytes(StandardCharsets.UTF_8);
        poa.activate_object_with_id(oid, home._makeServant(poa));
        CCMHome ref = CCMHomeHelper.unchecked_narrow(poa.id_to_reference(oid));
        home.install(this, id, ref);
        return ref;
    }

    CCMObject addComponent(HomeBase home, ComponentBase component, String key) throws CreateFailure {
        synchronized (this) {
            if (components.putIfAbsent(key, component) != null) {
                throw new CreateFailure("container '" + name + "' already has a component '" + key + "'");
            }
        }
        try {
            component.install(this, home._reference(), key);
        } catch (CCMException | IllegalState | RuntimeException e) {
            synchronized (this) {
                components.remove(key);
            }
            throw new CreateFailure("home '" + home._id() + "' could not install component '" + key
                    + "': " + e);
        }
        return component._reference();
    }

    /** The component `ref` names in this container; null for a stranger. */
    public ComponentBase componentOf(org.omg.CORBA.Object ref) {
        if (ref == null) {
            return null;
        }
        String key;
        try {
            key = new String(poa.reference_to_id(ref), StandardCharsets.UTF_8);
        } catch (org.omg.PortableServer.POAPackage.WrongAdapter
                | org.omg.PortableServer.POAPackage.WrongPolicy e) {
            return null; // not an object of this container
        }
        synchronized (this) {
            return components.get(key);
        }
    }

    public synchronized List<ComponentBase> components() {
        return new ArrayList<>(components.values());
    }

    synchronized void forget(ComponentBase component) {
        components.remove(component._key(), component);
    }

    /** ccm_activate: after configuration_complete, or again after passivate. */
    public void activate(ComponentBase component) throws IllegalState, CCMException {
        component.activate();
    }

    public void passivate(ComponentBase component) throws IllegalState, CCMException {
        component.passivate();
    }

    /** Removes every component (ccm_remove on each executor), then the POA. */
    public void remove() throws RemoveFailure {
        for (ComponentBase component : components()) {
            if (component._state() != LifecycleState.REMOVED) {
                component.remove();
            }
        }
        poa.destroy(false, false);
    }
}
