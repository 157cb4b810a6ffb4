#include "ccm_lookups.hpp"

#include <fstream>
#include <functional>
#include <iterator>
#include <omniORB4/Naming.hh>
#include <stdexcept>

namespace ccm_driver {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw std::runtime_error("cannot read " + path);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Measures `look_up`, whose result must be `expected`.
void measure(const mwbench::DriverOptions& options, mwbench::Measurement& m,
             CORBA::Object_ptr expected, const std::function<CORBA::Object_ptr()>& look_up) {
  const bool verify = options.option_flag("verify", false);
  {
    CORBA::Object_var first = look_up();
    if (CORBA::is_nil(first.in()) || !first->_is_equivalent(expected)) {
      throw std::runtime_error(options.operation + " found another object than the server's");
    }
  }
  m.run([&] {
    CORBA::Object_var found = look_up();
    if (verify && !found->_is_equivalent(expected)) {
      m.fail(options.operation + " found another object than the server's (verify=1)");
    }
  });
}

}  // namespace

void measure_lookups(const mwbench::DriverOptions& options, mwbench::Measurement& measurement,
                     CORBA::ORB_ptr orb, const Endpoint& endpoint) {
  const std::string& op = options.operation;
  auto object = [&](const char* key) {
    return CORBA::Object_var(orb->string_to_object(endpoint.at(key).c_str()));
  };
  if (op == "lookup_home_file") {
    const CORBA::Object_var home = object("home");
    const std::string path = endpoint.at("home_file");
    measure(options, measurement, home.in(),
            [&] { return orb->string_to_object(read_file(path).c_str()); });
  } else if (op == "lookup_home_naming") {
    const CORBA::Object_var home = object("home");
    const CORBA::Object_var root = object("naming");
    CosNaming::NamingContextExt_var naming = CosNaming::NamingContextExt::_narrow(root.in());
    if (CORBA::is_nil(naming.in())) throw std::runtime_error("the naming service is not one");
    CosNaming::Name_var name = naming->to_name(endpoint.at("home_name").c_str());
    measure(options, measurement, home.in(), [&] { return naming->resolve(name.in()); });
  } else if (op == "provide_facet") {
    const CORBA::Object_var component = object("component");
    Components::CCMObject_var typed = Components::CCMObject::_narrow(component.in());
    const CORBA::Object_var facet = typed->provide_facet("control");  // the expected answer
    measure(options, measurement, facet.in(), [&] { return typed->provide_facet("control"); });
  } else {  // find_component
    const CORBA::Object_var component = object("component");
    const CORBA::Object_var container = object("container");
    Components::Deployment::Container_var typed =
        Components::Deployment::Container::_narrow(container.in());
    measure(options, measurement, component.in(),
            [&] { return typed->find_component(kReceiverKey); });
  }
}

}  // namespace ccm_driver
