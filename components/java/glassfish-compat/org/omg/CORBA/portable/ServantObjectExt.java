package org.omg.CORBA.portable;

/**
 * The CORBA 3 ServantObject with completion callbacks, which the GlassFish
 * ORB's org.omg API lacks. JacORB's stubs test a collocated call's
 * ServantObject with `instanceof ServantObjectExt` (false on the GlassFish
 * ORB, whose ServantObjects are plain): the class must only exist for that
 * test to run. On the GlassFish classpath only.
 */
public abstract class ServantObjectExt extends ServantObject {
    public abstract void normalCompletion();

    public abstract void exceptionalCompletion(Throwable throwable);
}
