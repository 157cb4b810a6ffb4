package org.mwccm;

import Components.ConnectionDescription;
import Components.PortKind;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.omg.CORBA.BAD_INV_ORDER;
import org.omg.CORBA.CompletionStatus;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/**
 * A facet or an event sink: its servant is made, and activated in the
 * container's POA under "<key>#<port>", when its reference is first asked for
 * (as mwccm's C++ ProvidedPort), so a component whose facet nobody navigates
 * to costs no servant.
 */
public final class ProvidedPort extends Port {
    private final Function<POA, Servant> makeServant;
    private POA poa;
    private byte[] objectId;
    private org.omg.CORBA.Object reference;
    private boolean removed;

    public ProvidedPort(String name, PortKind kind, String typeId, Function<POA, Servant> makeServant) {
        super(name, kind, typeId);
        this.makeServant = makeServant;
    }

    synchronized void install(POA containerPoa, String id) {
        poa = containerPoa;
        objectId = id.getBytes(StandardCharsets.UTF_8);
    }

    synchronized void uninstall() {
        removed = true;
        if (reference == null) {
            return;
        }
        try {
            poa.deactivate_object(objectId);
        } catch (org.omg.PortableServer.POAPackage.ObjectNotActive
                | org.omg.PortableServer.POAPackage.WrongPolicy e) {
            // Already gone with its POA: nothing more to undo.
        }
    }

    /** The port's reference, its servant activated on first use. */
    public synchronized org.omg.CORBA.Object reference() {
        if (removed) {
            throw new OBJECT_NOT_EXIST(describe() + " was removed", 0, CompletionStatus.COMPLETED_NO);
        }
        if (reference != null) {
            return reference;
        }
        if (poa == null) {
            throw new BAD_INV_ORDER(describe() + " is not installed", 0, CompletionStatus.COMPLETED_NO);
        }
        try {
            poa.activate_object_with_id(objectId, makeServant.apply(poa));
            reference = poa.id_to_reference(objectId);
        } catch (org.omg.CORBA.UserException e) {
            throw new BAD_INV_ORDER(describe() + ": " + e, 0, CompletionStatus.COMPLETED_NO);
        }
        return reference;
    }

    @Override
    public ConnectionDescription[] describeConnections() {
        synchronized (this) {
            if (removed) {
                return new ConnectionDescription[0];
            }
        }
        return new ConnectionDescription[] {new ConnectionDescription(null, reference())};
    }
}
