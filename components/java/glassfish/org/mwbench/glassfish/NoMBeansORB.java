package org.mwbench.glassfish;

import com.sun.corba.ee.impl.orb.ORBImpl;
import org.glassfish.gmbal.ManagedObjectManagerFactory;

/**
 * The GlassFish CORBA ORB without its MBeans: ORB.init fails on Java 17 in
 * gmbal ("GMBALTLIB00004 Multiple upper bounds not supported",
 * eclipse-ee4j/orb issue #128), which only the ORB's management layer uses.
 * Name it as org.omg.CORBA.ORBClass (singleton:
 * com.sun.corba.ee.impl.orb.ORBSingleton); on the GlassFish classpath only.
 */
public class NoMBeansORB extends ORBImpl {
    @Override
    public void createORBManagedObjectManager() {
        mom = ManagedObjectManagerFactory.createNOOP();
    }
}
