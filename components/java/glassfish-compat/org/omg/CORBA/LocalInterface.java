package org.omg.CORBA;

/**
 * The marker every local interface extends in the IDL-to-Java mapping (1.3,
 * section 1.12.1), which the GlassFish ORB's org.omg API lacks: the Java
 * mapping of the Components module's executor interfaces (SessionComponent,
 * SessionContext...) names it. On the GlassFish classpath only (JacORB's
 * org.omg API has its own).
 */
public interface LocalInterface extends org.omg.CORBA.Object {
}
