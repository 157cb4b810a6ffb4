package org.mwccm.checks;

import Components.CCMObject;
import Components.ConfigValue;
import Components.IllegalState;
import Components.InvalidConfiguration;
import Components.KeylessCCMHome;
import Components.KeylessCCMHomeHelper;
import Components.RemoveFailure;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;

/** A Receiver's home: create, set_configuration by name, configuration_complete, remove. */
final class LifecycleChecks {
    private final ORB orb;
    private final KeylessCCMHome home;

    LifecycleChecks(ORB orb, String line) {
        this.orb = orb;
        home = KeylessCCMHomeHelper.narrow(ComponentChecks.object(orb, line, "home"));
    }

    void run() throws Exception {
        String key = "checked-receiver";
        CCMObject made = home.create_named_component(key);
        Expect.that(made._is_a("IDL:CcmPerf/Receiver:1.0"), "the home made a CcmPerf::Receiver");
        Expect.that(made.get_ccm_home()._is_equivalent(home), "get_ccm_home is the home that made it");
        Any verify = orb.create_any();
        verify.insert_boolean(true);
        Any text = orb.create_any();
        text.insert_string("sixty-four");
        Expect.raises(InvalidConfiguration.class, "attribute 'payload_bytes' of component '" + key
                + "' takes unsigned long; set_configuration refused",
                () -> made.set_configuration(new ConfigValue[] {new ConfigValue("payload_bytes", text)}));
        Expect.raises(InvalidConfiguration.class, "component '" + key
                + "' has no writable attribute 'colour'; set_configuration refused",
                () -> made.set_configuration(new ConfigValue[] {new ConfigValue("colour", verify)}));
        made.set_configuration(new ConfigValue[] {new ConfigValue("verify", verify)});
        made.configuration_complete();
        Expect.raises(IllegalState.class, "component '" + key
                + "' is configured, not context set; configuration_complete refused",
                made::configuration_complete);
        Expect.raises(InvalidConfiguration.class, "component '" + key
                + "' is configured; set_configuration refused",
                () -> made.set_configuration(new ConfigValue[] {new ConfigValue("verify", verify)}));
        Test.RoundTrip control = Test.RoundTripHelper.narrow(made.provide_facet("control"));
        Expect.equal(7L, control.test_method(7), "test_method on the new component's facet");

        home.remove_component(made);
        Expect.raises(org.omg.CORBA.OBJECT_NOT_EXIST.class, null, () -> made.provide_facet("control"));
        Expect.raises(org.omg.CORBA.OBJECT_NOT_EXIST.class, null, () -> control.test_method(8));
        Expect.raises(RemoveFailure.class, null, () -> home.remove_component(made));

        CCMObject second = home.create_component();
        second.remove(); // CCMObject::remove, not through the home
        Expect.raises(org.omg.CORBA.OBJECT_NOT_EXIST.class, null, second::get_all_ports);
    }
}
