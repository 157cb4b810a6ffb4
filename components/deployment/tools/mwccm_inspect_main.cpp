// mwccm-inspect: what an assembly is, found through navigation alone
// (docs/deployment.md section 5), so that two assemblies of one plan, static
// and dynamic, can be compared.
//
//   mwccm-inspect NAME=TARGET... [--interfaces DIR]... [--state FILE]
//
// TARGET is a registered component's reference as registration.hpp reads it
// ("file:hud.ior", "naming:BasicSP/HUD", a path, an IOR). For each, prints
// as JSON (keys sorted): the component type (the .ccd whose type it _is_a),
// each configurable attribute's value (read with the DII, so no generated
// code is needed), and each port with what it is connected to, named
// "component.port" by finding the connected reference among the ports of
// the components given (_is_equivalent), or "elsewhere". With --state (the
// file `mwccm-deploy --state` wrote), also "channels": what the event
// channel of each process of that deployment did (docs/events.md, "Once
// per sink"). Exit status 0; 1 when a reference cannot be reached; 2 for a
// bad command line.
#include <omniORB4/CORBA.h>
#include <omniORB4/dynAny.h>

#include <CLI/CLI.hpp>
#include <Components.hh>
#include <MwccmDeployment.hh>
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mwccm/channel_counters_json.hpp>
#include <mwccm/cookie.hpp>
#include <mwccm/deployment/any_value.hpp>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <nlohmann/json.hpp>

namespace {

using namespace mwccm::deployment;

struct Inspected {
  std::string name;
  Components::CCMObject_var component;
  Components::PortDescriptions_var ports;
};

nlohmann::json attributes_of(CORBA::ORB_ptr orb, const Inspected& inspected,
                             const ComponentInterface& interface) {
  nlohmann::json attributes = nlohmann::json::object();
  for (const auto& attribute : interface.attributes) {
    CORBA::Request_var request = inspected.component->_request(("_get_" + attribute.name).c_str());
    CORBA::TypeCode_var type =
        type_code_of(orb, attribute.kind, attribute.enum_type_id, attribute.enum_members);
    request->set_return_type(type.in());
    request->invoke();
    attributes[attribute.name] = text_of(orb, attribute.kind, request->return_value());
  }
  return attributes;
}

// "component.port" of the facet or consumer `reference` is, among those inspected.
std::string end_of(CORBA::Object_ptr reference, const std::vector<Inspected>& all) {
  for (const auto& other : all) {
    for (CORBA::ULong p = 0; p < other.ports->length(); ++p) {
      const Components::PortDescription& port = other.ports.in()[p];
      if (port.kind != Components::FACET && port.kind != Components::CONSUMER) continue;
      if (port.connections.length() == 1 &&
          reference->_is_equivalent(port.connections[0].objref.in()))
        return other.name + "." + port.name.in();
    }
  }
  return "elsewhere";
}

// A port's kind as plans name it (D&C's CCMComponentPortKind), by the order
// of Components::PortKind in Components.idl.
std::string kind_name(Components::PortKind kind) {
  constexpr std::array<PortKind, 6> kKinds{
      PortKind::Facet,          PortKind::SimplexReceptacle, PortKind::MultiplexReceptacle,
      PortKind::EventPublisher, PortKind::EventEmitter,      PortKind::EventConsumer};
  const auto index = static_cast<std::size_t>(kind);
  return index < kKinds.size() ? port_kind_name(kKinds[index]) : "?";
}

nlohmann::json ports_of(const Inspected& inspected, const std::vector<Inspected>& all) {
  nlohmann::json ports = nlohmann::json::object();
  for (CORBA::ULong p = 0; p < inspected.ports->length(); ++p) {
    const Components::PortDescription& port = inspected.ports.in()[p];
    nlohmann::json described{{"kind", kind_name(port.kind)}, {"type", port.type_id.in()}};
    if (port.kind != Components::FACET && port.kind != Components::CONSUMER) {
      std::vector<std::string> connected;
      for (CORBA::ULong c = 0; c < port.connections.length(); ++c)
        connected.push_back(end_of(port.connections[c].objref.in(), all));
      std::sort(connected.begin(), connected.end());
      described["connected"] = connected;
    }
    ports[port.name.in()] = described;
  }
  return ports;
}

const ComponentInterface* interface_of(const Inspected& inspected,
                                       const std::vector<ComponentInterface>& interfaces) {
  for (const auto& interface : interfaces) {
    if (inspected.component->_is_a(interface.specific_type.c_str())) return &interface;
  }
  return nullptr;
}

// What the channels of the deployment a state file describes did, by process.
nlohmann::json channels_of(CORBA::ORB_ptr orb, const std::string& state_file) {
  const nlohmann::json state = nlohmann::json::parse(read_input_file(state_file, kStateFile));
  nlohmann::json channels = nlohmann::json::object();
  for (const auto& node : state.at("nodes")) {
    CORBA::Object_var object =
        orb->string_to_object(node.at("application").get<std::string>().c_str());
    MwccmDeployment::ChannelCountersList_var counted =
        MwccmDeployment::NodeApplication::_narrow(object.in())->get_channel_counters();
    for (CORBA::ULong i = 0; i < counted->length(); ++i) {
      const MwccmDeployment::ChannelCounters& c = counted[i];
      nlohmann::json suppliers = nlohmann::json::object();
      for (CORBA::ULong s = 0; s < c.suppliers.length(); ++s)
        suppliers[c.suppliers[s].supplier.in()] = mwccm::supplier_counters_json(c.suppliers[s]);
      channels[c.process.in()] = mwccm::channel_counters_json(c, std::move(suppliers));
    }
  }
  return channels;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> targets, interface_dirs;
  std::string state_file;
  CLI::App app{"mwccm-inspect: an assembly's components, attributes and connections"};
  app.add_option("components", targets, "NAME=TARGET of each registered component");
  app.add_option("--interfaces", interface_dirs, "a directory of .ccd files")
      ->allow_extra_args(false);  // one directory each, so NAME=TARGET stay positional
  app.add_option("--state", state_file, "a deployment's state file: its channels' counters");
  CLI11_PARSE(app, argc, argv);
  if (targets.empty() && state_file.empty()) {
    std::cerr << "mwccm-inspect: give NAME=TARGET, --state FILE, or both\n";
    return 2;
  }

  std::vector<ComponentInterface> interfaces;
  try {
    for (const auto& directory : interface_dirs) {
      for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        if (entry.path().extension() == ".ccd")
          interfaces.push_back(read_component_interface(entry.path().string()));
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "mwccm-inspect: " << e.what() << '\n';
    return 2;
  }
  int n = 1;
  char name[] = "mwccm-inspect";
  char* orb_argv[] = {name, nullptr};
  CORBA::ORB_var orb = CORBA::ORB_init(n, orb_argv);
  mwccm::register_value_factories(orb.in());  // connections carry Cookies
  int status = 0;
  try {
    std::vector<Inspected> all;
    for (const auto& target : targets) {
      const auto equals = target.find('=');
      if (equals == std::string::npos || equals == 0)
        throw std::invalid_argument("'" + target + "' is not NAME=TARGET");
      Inspected inspected{target.substr(0, equals), nullptr, nullptr};
      inspected.component =
          mwccm::resolve<Components::CCMObject>(orb.in(), target.substr(equals + 1));
      inspected.ports = inspected.component->get_all_ports();
      all.push_back(std::move(inspected));
    }
    nlohmann::json result = nlohmann::json::object();
    for (const auto& inspected : all) {
      const ComponentInterface* interface = interface_of(inspected, interfaces);
      nlohmann::json described{{"ports", ports_of(inspected, all)}};
      if (interface != nullptr) {
        described["type"] = interface->specific_type;
        described["attributes"] = attributes_of(orb.in(), inspected, *interface);
      }
      result[inspected.name] = described;
    }
    if (!state_file.empty()) result["channels"] = channels_of(orb.in(), state_file);
    std::cout << result.dump(2) << '\n';
  } catch (...) {
    std::cerr << "mwccm-inspect: " << mwccm::current_exception_message() << '\n';
    status = 1;
  }
  orb->destroy();
  return status;
}
