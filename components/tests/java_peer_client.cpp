// mwccm-java-peer-client ENDPOINT-FILE: a C++ client of a Java component
// server (components/java, CcmPerfHost), through the Components stubs alone.
// Navigates the Receiver by name, calls its facet, and connects and
// subscribes a Caller of that server by name, sending the server's own
// cookies back to it. Prints "ok: ..." per step; the first failure exits 1.
#include <CcmPerf_ccm.hh>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mwccm/cookie.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

std::string word(const std::string& line, const std::string& key) {
  std::istringstream words(line);
  for (std::string w; words >> w;) {
    if (w.rfind(key + "=", 0) == 0) return w.substr(key.size() + 1);
  }
  throw std::runtime_error("the endpoint has no " + key + "=: " + line);
}

void expect(bool holds, const std::string& what) {
  if (!holds) throw std::runtime_error(what);
}

template <class Exception, class Call>
void expect_raises(const std::string& message, Call call) {
  try {
    call();
  } catch (const Exception& e) {
    expect(message.empty() || message == e.message.in(),
           "expected the message \"" + message + "\", got \"" + e.message.in() + "\"");
    return;
  }
  throw std::runtime_error("expected " + std::string(Exception::_PD_repoId) + ": " + message);
}

void navigate(Components::CCMObject_ptr receiver) {
  CORBA::Object_var facet = receiver->provide_facet("control");
  Test::RoundTrip_var control = Test::RoundTrip::_narrow(facet.in());
  expect(!CORBA::is_nil(control.in()), "provide_facet(\"control\") is no Test::RoundTrip");
  expect(control->test_method(42) == 42, "test_method(42) through the facet");
  expect_raises<Components::InvalidName>("component 'receiver' has no port 'nope'", [&] {
    CORBA::Object_var o = receiver->provide_facet("nope");
  });
  Components::PortDescriptions_var ports = receiver->get_all_ports();
  expect(ports->length() == 3, "get_all_ports: 3 ports");
  expect(std::string(ports[0].name.in()) == "control" && ports[0].kind == Components::FACET,
         "get_all_ports: the facet 'control' first");
  std::cout << "ok: navigation" << std::endl;
}

void connect(Components::CCMObject_ptr receiver, Components::KeylessCCMHome_ptr callers) {
  Components::CCMObject_var caller = callers->create_named_component("cpp-caller");
  CORBA::Object_var facet = receiver->provide_facet("control");
  Components::Cookie_var none = caller->connect("peer", facet.in());
  expect(none.in() == nullptr, "a simplex connection's cookie is null");
  Components::ConnectionDescriptions_var connections = caller->get_connections("peer");
  expect(connections->length() == 1 && connections[0].objref->_is_equivalent(facet.in()),
         "get_connections gives the facet");
  CORBA::Object_var former = caller->disconnect("peer", nullptr);
  expect_raises<Components::NoConnection>(
      "receptacle 'peer' of component 'cpp-caller' is not connected; disconnect_peer refused",
      [&] { CORBA::Object_var o = caller->disconnect("peer", nullptr); });

  Components::EventConsumerBase_var values = receiver->get_consumer("values");
  Components::Cookie_var cookie = caller->subscribe("values", values.in());
  expect(cookie.in() != nullptr && cookie->cookieValue().length() == 8,
         "the Java server's cookie: 8 octets");
  Components::EventConsumerBase_var gone = caller->unsubscribe("values", cookie.in());
  expect(gone->_is_equivalent(values.in()), "unsubscribe with the server's cookie");
  expect_raises<Components::InvalidConnection>(
      "publisher 'values' of component 'cpp-caller' has no connection with this cookie; "
      "unsubscribe refused",
      [&] { Components::EventConsumerBase_var c = caller->unsubscribe("values", cookie.in()); });
  callers->remove_component(caller.in());
  std::cout << "ok: receptacles" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mwccm-java-peer-client ENDPOINT-FILE\n";
    return 2;
  }
  CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
  int status = 0;
  try {
    mwccm::register_value_factories(orb.in());
    std::ifstream in(argv[1]);
    std::string line;
    std::getline(in, line);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    CORBA::Object_var component = orb->string_to_object(word(line, "component").c_str());
    Components::CCMObject_var receiver = Components::CCMObject::_narrow(component.in());
    navigate(receiver.in());
    CORBA::Object_var home = orb->string_to_object(word(line, "caller_home").c_str());
    Components::KeylessCCMHome_var callers = Components::KeylessCCMHome::_narrow(home.in());
    connect(receiver.in(), callers.in());
  } catch (const CORBA::Exception& e) {
    std::cerr << "mwccm-java-peer-client: FAILED: " << e._name() << '\n';
    status = 1;
  } catch (const std::exception& e) {
    std::cerr << "mwccm-java-peer-client: FAILED: " << e.what() << '\n';
    status = 1;
  }
  orb->destroy();
  return status;
}
