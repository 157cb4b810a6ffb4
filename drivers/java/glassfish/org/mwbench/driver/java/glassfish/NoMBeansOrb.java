package org.mwbench.driver.java.glassfish;

import com.sun.corba.ee.impl.orb.ORBImpl;
import org.glassfish.gmbal.ManagedObjectManagerFactory;

/**
 * The GlassFish CORBA ORB without its MBeans, so that it starts on Java 17.
 *
 * <p>GlassFish ORB 4.2.5 fails in ORB.init on Java 17 while it builds its
 * management beans (gmbal: "GMBALTLIB00004 Multiple upper bounds not
 * supported", eclipse-ee4j/orb issue #128; the ORB's README says 4.2 is for
 * Java 8 to 11). The beans only expose the ORB to JMX consoles; with a no-op
 * manager the ORB itself is unchanged. Compiled against the GlassFish jars
 * alone and put only on the GlassFish classpath (drivers/java/CMakeLists.txt),
 * where it is the ORB class (org.omg.CORBA.ORBClass).
 */
public class NoMBeansOrb extends ORBImpl {
    @Override
    public void createORBManagedObjectManager() {
        mom = ManagedObjectManagerFactory.createNOOP();
    }
}
