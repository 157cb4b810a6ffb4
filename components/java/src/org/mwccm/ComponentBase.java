package org.mwccm;

import Components.AlreadyConnected;
import Components.CCMException;
import Components.CCMHome;
import Components.CCMObject;
import Components.CCMObjectHelper;
import Components.ConfigValue;
import Components.ConnectionDescription;
import Components.Cookie;
import Components.CookieRequired;
import Components.EnterpriseComponent;
import Components.EventConsumerBase;
import Components.ExceededConnectionLimit;
import Components.IllegalState;
import Components.InvalidConfiguration;
import Components.InvalidConnection;
import Components.InvalidName;
import Components.NoConnection;
import Components.PortDescription;
import Components.RemoveFailure;
import Components.SessionComponent;
import Components.SessionContext;
import java.nio.charset.StandardCharsets;
import org.omg.CORBA.Any;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * What every component implements the same way, as mwccm's C++
 * ComponentServant: CCMObject by name through the port table, the lifecycle
 * (set_session_context, configuration_complete, ccm_activate, ccm_passivate,
 * ccm_remove on the executor) and set_configuration. The generated
 * `<C>Component` derives from it and adds the typed port operations, the
 * attributes and the context; its servant is the IDL compiler's POA tie
 * over it (`<C>POATie`), so navigation costs no generated code.
 */
public abstract class ComponentBase implements Components.CCMObjectOperations {
    // Every member a subclass or a host calls starts with an underscore, as
    // the Java mapping's own (_this, _default_POA): an IDL identifier never
    // does, so no attribute or port operation of a component can collide.
    private final PortTable ports = new PortTable();
    private final EnterpriseComponent executor;
    private final SessionComponent session;
    private LifecycleState state = LifecycleState.CREATED;
    private Container container;
    private CCMHome home;
    private String key = "(not installed)";
    private CCMObject reference;
    private SessionContext context;

    protected ComponentBase(EnterpriseComponent executor) {
        this.executor = executor;
        this.session = executor instanceof SessionComponent ? (SessionComponent) executor : null;
    }

    protected final PortTable _ports() {
        return ports;
    }

    /** The executor the home made (the user's CCM_<C>): how a hosting program reaches it. */
    public final EnterpriseComponent _executor() {
        return executor;
    }

    /** The component's servant: the IDL compiler's tie of its interface over this object. */
    protected abstract Servant _makeServant(POA poa);

    /** The generated context the executor reaches its receptacles and sources through. */
    protected abstract SessionContext _createContext();

    /**
     * Sets attribute `name` from `value`; false when there is no writable
     * attribute of that name (the base then refuses naming it).
     */
    protected boolean _setAttribute(String name, Any value) throws InvalidConfiguration {
        return false;
    }

    protected final InvalidConfiguration _attributeTypeMismatch(String name, String expectedType) {
        return new InvalidConfiguration("attribute '" + name + "' of component '" + key + "' takes "
                + expectedType + "; set_configuration refused");
    }

    /** A facet's reference for provide_<facet>; the generated code names only its own facets. */
    protected final org.omg.CORBA.Object _facet(String name) {
        try {
            return ports.provideFacet(name);
        } catch (InvalidName e) {
            throw new org.omg.CORBA.INTERNAL(e.message);
        }
    }

    /** A sink's reference for get_consumer_<sink>. */
    protected final EventConsumerBase _sink(String name) {
        try {
            return ports.consumer(name);
        } catch (InvalidName e) {
            throw new org.omg.CORBA.INTERNAL(e.message);
        }
    }

    public final String _key() {
        return key;
    }

    public final synchronized LifecycleState _state() {
        return state;
    }

    /** This component's reference; null before it is installed. */
    public final CCMObject _reference() {
        return reference;
    }

    final synchronized void install(Container where, CCMHome madeBy, String componentKey)
            throws CCMException, IllegalState {
        require(LifecycleState.CREATED, "install");
        key = componentKey;
        container = where;
        home = madeBy;
        POA poa = where.poa();
        ports.install(componentKey, poa);
        byte[] oid = componentKey.getBytes(StandardCharsets.UTF_8);
        try {
            poa.activate_object_with_id(oid, _makeServant(poa));
            reference = CCMObjectHelper.unchecked_narrow(poa.id_to_reference(oid));
        } catch (org.omg.CORBA.UserException e) {
            throw new CCMException("component '" + componentKey + "' could not be activated: " + e);
        }
        try {
            context = _createContext();
            if (session != null) {
                session.set_session_context(context);
            }
        } catch (CCMException | RuntimeException e) {
            deactivateAll();
            context = null;
            throw e;
        }
        state = LifecycleState.CONTEXT_SET;
    }

    private void require(LifecycleState wanted, String step) throws IllegalState {
        if (state != wanted) {
            throw new IllegalState("component '" + key + "' is " + state + ", not " + wanted + "; "
                    + step + " refused");
        }
    }

    private void deactivateAll() {
        ports.uninstall();
        try {
            container.poa().deactivate_object(key.getBytes(StandardCharsets.UTF_8));
        } catch (org.omg.CORBA.UserException e) {
            // Not active any more (its POA destroyed): nothing more to undo.
        }
    }

    // Navigation, Receptacles, Events: by name, through the port table.

    @Override
    public org.omg.CORBA.Object provide_facet(String name) throws InvalidName {
        return ports.provideFacet(name);
    }

    @Override
    public PortDescription[] get_all_ports() {
        return ports.describe();
    }

    @Override
    public Cookie connect(String name, org.omg.CORBA.Object connection)
            throws AlreadyConnected, InvalidName, ExceededConnectionLimit, InvalidConnection {
        return ports.receptacle(name).connectObject(connection);
    }

    @Override
    public org.omg.CORBA.Object disconnect(String name, Cookie ck)
            throws CookieRequired, InvalidName, InvalidConnection, NoConnection {
        return ports.receptacle(name).disconnectObject(ck);
    }

    @Override
    public ConnectionDescription[] get_connections(String name) throws InvalidName {
        return ports.receptacle(name).describeConnections();
    }

    @Override
    public EventConsumerBase get_consumer(String sinkName) throws InvalidName {
        return ports.consumer(sinkName);
    }

    @Override
    public Cookie subscribe(String publisherName, EventConsumerBase subscriber)
            throws InvalidName, InvalidConnection {
        return ports.publisher(publisherName).subscribeObject(subscriber);
    }

    @Override
    public EventConsumerBase unsubscribe(String publisherName, Cookie ck)
            throws InvalidName, InvalidConnection {
        return ports.publisher(publisherName).unsubscribe(ck, "unsubscribe");
    }

    @Override
    public void connect_consumer(String emitterName, EventConsumerBase consumer)
            throws AlreadyConnected, InvalidName, InvalidConnection {
        ports.emitter(emitterName).connectObject(consumer);
    }

    @Override
    public EventConsumerBase disconnect_consumer(String sourceName) throws InvalidName, NoConnection {
        return ports.emitter(sourceName).disconnect("disconnect_consumer");
    }

    // CCMObject: home, configuration, lifecycle.

    @Override
    public CCMHome get_ccm_home() {
        return home;
    }

    @Override
    public synchronized void set_configuration(ConfigValue[] descr) throws InvalidConfiguration {
        if (state != LifecycleState.CONTEXT_SET) {
            throw new InvalidConfiguration("component '" + key + "' is " + state
                    + "; set_configuration refused");
        }
        for (ConfigValue value : descr) {
            if (!_setAttribute(value.name, value.value)) {
                throw new InvalidConfiguration("component '" + key + "' has no writable attribute '"
                        + value.name + "'; set_configuration refused");
            }
        }
    }

    @Override
    public synchronized void configuration_complete() throws InvalidConfiguration, IllegalState {
        require(LifecycleState.CONTEXT_SET, "configuration_complete");
        if (session != null) {
            session.configuration_complete();
        }
        state = LifecycleState.CONFIGURED;
    }

    synchronized void activate() throws IllegalState, CCMException {
        if (state != LifecycleState.PASSIVE) {
            require(LifecycleState.CONFIGURED, "ccm_activate");
        }
        if (session != null) {
            session.ccm_activate();
        }
        state = LifecycleState.ACTIVE;
    }

    synchronized void passivate() throws IllegalState, CCMException {
        require(LifecycleState.ACTIVE, "ccm_passivate");
        if (session != null) {
            session.ccm_passivate();
        }
        state = LifecycleState.PASSIVE;
    }

    @Override
    public void remove() throws RemoveFailure {
        Container where;
        CCMException failure = null;
        synchronized (this) {
            if (state == LifecycleState.REMOVED || container == null) {
                throw new RemoveFailure("component '" + key + "' is " + state + "; remove refused");
            }
            try {
                if (state == LifecycleState.ACTIVE && session != null) {
                    session.ccm_passivate();
                }
                state = LifecycleState.REMOVED;
                deactivateAll(); // no new call reaches the component
                if (session != null) {
                    session.ccm_remove();
                }
            } catch (CCMException e) {
                failure = e;
            }
            state = LifecycleState.REMOVED;
            context = null;
            where = container;
        }
        where.forget(this);
        if (failure != null) {
            throw new RemoveFailure("component '" + key + "': its executor raised CCMException ("
                    + failure.message + "); removed all the same");
        }
    }

    /** The context's get_CCM_object: this component's reference. */
    final org.omg.CORBA.Object referenceForContext() throws IllegalState {
        if (reference == null) {
            throw new IllegalState("component '" + key + "' has no reference yet; get_CCM_object refused");
        }
        return reference;
    }
}
