package org.mwbench.driver.java;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.omg.CORBA.ORB;

/**
 * The two Java ORBs of the driver (--option orb): how each is initialised, and
 * the little each does in a way of its own. Everything else, the stubs
 * included, is the standard org.omg API, the same code on both.
 *
 * <p>Each is given its ORB classes, and its listening address (--bind, never
 * the wildcard) and port 0 (the kernel picks a free one) in its own property
 * names, in every role: a client ORB that opens a listener (GlassFish's,
 * JacORB's once a POA exists) opens it on --bind too.
 */
enum OrbKind {
    JACORB("jacorb", "JacORB", "org.jacorb.orb.ORB", "org.jacorb.orb.ORBSingleton",
            "org.jacorb/jacorb", "OAIAddr", "OAPort", "addObjectKey"),
    // NoMBeansOrb: the ORB without the MBeans that fail on Java 17 (drivers/java/glassfish).
    GLASSFISH("glassfish", "GlassFish CORBA ORB", "org.mwbench.driver.java.glassfish.NoMBeansOrb",
            "com.sun.corba.ee.impl.orb.ORBSingleton", "org.glassfish.corba/glassfish-corba-orb",
            "com.sun.corba.ee.ORBServerHost", "com.sun.corba.ee.ORBServerPort",
            "register_initial_reference");

    final String optionValue;
    final String middleware;
    private final String orbClass;
    private final String singletonClass;
    private final String mavenArtifact;
    private final String hostProperty;
    private final String portProperty;
    private final String keyMethod;

    OrbKind(String optionValue, String middleware, String orbClass, String singletonClass,
            String mavenArtifact, String hostProperty, String portProperty, String keyMethod) {
        this.optionValue = optionValue;
        this.middleware = middleware;
        this.orbClass = orbClass;
        this.singletonClass = singletonClass;
        this.mavenArtifact = mavenArtifact;
        this.hostProperty = hostProperty;
        this.portProperty = portProperty;
        this.keyMethod = keyMethod;
    }

    /** Every ORB.init property, in order, for ORB.init and the result header. */
    Map<String, String> properties(String bindAddress, boolean nioSockets) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("org.omg.CORBA.ORBClass", orbClass);
        properties.put("org.omg.CORBA.ORBSingletonClass", singletonClass);
        properties.put(hostProperty, bindAddress);
        properties.put(portProperty, "0");
        if (this == JACORB) {
            // A POA's full request queue (jacorb.poa.queue_max, 100 requests) makes a new
            // request wait instead of failing with TRANSIENT: an open loop that outpaces
            // the servant, or a burst after a pause, queues as a socket would.
            properties.put("jacorb.poa.queue_wait", "on");
        }
        if (this == GLASSFISH && !nioSockets) {
            // Blocking sockets with a reader thread per connection, instead of the
            // default NIO selector that hands every message to a worker thread: a
            // round trip wakes 3-4 threads fewer and takes about half the time
            // (56 -> 30 us on one CPU, docs/performance.md). JacORB has no such
            // choice: its receptor -> controller -> processor chain is fixed.
            properties.put("com.sun.corba.ee.transport.ORBConnectionSocketType", "Socket");
            properties.put("com.sun.corba.ee.transport.ORBAcceptorSocketType", "Socket");
        }
        return properties;
    }

    ORB init(Map<String, String> properties) {
        Properties given = new Properties();
        given.putAll(properties);
        return ORB.init(new String[0], given);
    }

    /**
     * Makes a request for the object key `key` (a corbaloc reference's key)
     * reach `target`, an object of this ORB. JacORB maps the key to the
     * target's own key as each request arrives (ORB.addObjectKey); the
     * GlassFish ORB answers a request for a key it does not know, but has as
     * an initial reference, with a LOCATION_FORWARD to the target, which the
     * client then calls directly (its INS dispatcher).
     */
    void registerKey(ORB orb, String key, org.omg.CORBA.Object target) {
        try {
            orb.getClass().getMethod(keyMethod, String.class, org.omg.CORBA.Object.class)
                    .invoke(orb, key, target);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(middleware + " refused the object key " + key + ": "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(middleware + " has no " + keyMethod + ": " + e, e);
        }
    }

    /** The version of the ORB's jar on the classpath, from its Maven metadata. */
    String version() {
        String resource = "/META-INF/maven/" + mavenArtifact + "/pom.properties";
        try (InputStream in = OrbKind.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "unknown (no " + resource + " on the classpath)";
            }
            Properties pom = new Properties();
            pom.load(in);
            return pom.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
