package org.mwccm;

import java.util.Properties;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * ORB.init for a process that serves, on whichever ORB org.omg.CORBA.ORBClass
 * names. Which address to listen on has no standard property: both ORBs'
 * are set (JacORB's OAIAddr, the GlassFish ORB's ORBServerHost), each ORB
 * ignoring the other's, so no ORB class is named here.
 */
public final class Orbs {
    private Orbs() {
    }

    /** An ORB listening on `bindHost` (loopback unless told), properties as given. */
    public static ORB init(String[] args, String bindHost) {
        Properties properties = new Properties();
        properties.setProperty("OAIAddr", bindHost);
        properties.setProperty("com.sun.corba.ee.ORBServerHost", bindHost);
        return ORB.init(args, properties);
    }

    /** The root POA, its manager active. */
    public static POA activeRootPoa(ORB orb) throws org.omg.CORBA.UserException {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        return root;
    }
}
