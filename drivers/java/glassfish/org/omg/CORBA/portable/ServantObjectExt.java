package org.omg.CORBA.portable;

/**
 * The standard class (the CORBA 3 Java mapping) that the GlassFish ORB's
 * org.omg API lacks. JacORB's IDL compiler writes stubs whose collocated path
 * asks whether the ORB's ServantObject is one of these, to tell it how the
 * call completed; without the class, a collocated call on the GlassFish ORB
 * fails with NoClassDefFoundError. The GlassFish ORB's ServantObject never is
 * one, so its stubs' answer is no, as the ORB expects. On the GlassFish
 * classpath only (JacORB's org.omg API has it).
 */
public abstract class ServantObjectExt extends ServantObject {
    public abstract void normalCompletion();

    public abstract void exceptionalCompletion(Throwable throwable);
}
