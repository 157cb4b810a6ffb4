// The program of the worked example: creates an Echo and a Pinger in one
// container, configures them by name, connects Pinger.peer to Echo.control and
// Echo.ticks to Pinger.ticks, activates both, and calls Pinger.start. Every
// step is a CORBA operation, so the same steps work on components in another
// process. Exits 0 when the call came back and the event arrived.
#include <RoundTripPair_ccm_glue.hpp>
#include <cstdio>
#include <exception>
#include <mwccm/container.hpp>

namespace {

template <class T>
typename T::_ptr_type create(mwccm::Container& container, const char* id, const char* entrypoint) {
  const Components::ConfigValues no_config;
  Components::CCMHome_var home = container.install_home(id, entrypoint, no_config);
  Components::KeylessCCMHome_var keyless = Components::KeylessCCMHome::_narrow(home.in());
  Components::CCMObject_var component = keyless->create_component();
  return T::_narrow(component.in());
}

int run(CORBA::ORB_ptr orb) {
  CORBA::Object_var root_object = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var root = PortableServer::POA::_narrow(root_object.in());
  PortableServer::POAManager_var manager = root->the_POAManager();
  manager->activate();

  PortableServer::Servant_var<mwccm::Container> container =
      new mwccm::Container(orb, root.in(), "example");
  Example::Echo_var echo =
      create<Example::Echo>(*container, "echo-home", "mwccm_home_Example_EchoHome");
  Example::Pinger_var pinger =
      create<Example::Pinger>(*container, "pinger-home", "mwccm_home_Example_PingerHome");

  // Configuration by name (a deployment plan does the same).
  Components::ConfigValues config;
  config.length(1);
  config[0].name = "greeting";
  config[0].value <<= "hello";
  echo->set_configuration(config);

  // Connections, typed here; connect("peer", ...) and subscribe("ticks", ...) by name work too.
  Test::RoundTrip_var control = echo->provide_control();
  pinger->connect_peer(control.in());
  Example::TickConsumer_var sink = echo->get_consumer_ticks();
  Components::Cookie_var subscription = pinger->subscribe_ticks(sink.in());

  echo->configuration_complete();
  pinger->configuration_complete();
  container->activate_component(echo.in());
  container->activate_component(pinger.in());

  Test::RoundTrip_var start = pinger->provide_start();
  const CORBA::ULongLong answer = start->test_method(42);
  CORBA::String_var greeting = echo->greeting();
  std::printf("answer %llu, greeting \"%s\", calls made %lu, ticks received %lu\n",
              static_cast<unsigned long long>(answer), greeting.in(),
              static_cast<unsigned long>(pinger->calls_made()),
              static_cast<unsigned long>(echo->ticks_received()));
  const bool ok = answer == 42 && pinger->calls_made() == 1 && echo->ticks_received() == 1;

  container->remove();
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
  int status = 1;
  try {
    status = run(orb.in());
  } catch (const CORBA::UserException& error) {
    std::fprintf(stderr, "roundtrip-pair: %s\n", error._name());
  } catch (const CORBA::SystemException& error) {
    std::fprintf(stderr, "roundtrip-pair: CORBA %s\n", error._name());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "roundtrip-pair: %s\n", error.what());
  }
  orb->destroy();
  return status;
}
