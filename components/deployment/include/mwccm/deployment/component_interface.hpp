// Component interface descriptions: what a plan is checked against. mwccm-gen
// writes one D&C ComponentInterfaceDescription (.ccd, XML) per component,
// beside the component's library: its ports with their kinds and types, its
// configurable attributes, and the entry points of the homes that make it
// (docs/deployment.md section 2). A catalog reads every .ccd of some
// directories and finds a component's interface by its home's entry point.
#pragma once

#include <map>
#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct PortDescription {
  std::string name;
  PortKind kind = PortKind::Facet;
  // A facet or receptacle: the interface's repository id. An event port: the
  // event type's.
  std::string specific_type;
  // A facet: its interface and every base, so that a receptacle of a base
  // type accepts it.
  std::vector<std::string> supported_types;
};

struct AttributeDescription {  // a configurable (writable) attribute
  std::string name;
  ValueKind kind = ValueKind::String;
  std::string enum_type_id;  // Enum only
  std::vector<std::string> enum_members;
};

struct ComponentInterface {
  std::string label;          // "BasicSP::GPS"
  std::string specific_type;  // "IDL:BasicSP/GPS:1.0"
  std::vector<PortDescription> ports;
  std::vector<AttributeDescription> attributes;
  std::vector<std::string> home_entrypoints;
  std::string file;

  const PortDescription* find_port(const std::string& name) const;            // null if none
  const AttributeDescription* find_attribute(const std::string& name) const;  // null if none
  std::string port_names() const;  // "position (Facet), ready (EventPublisher)"
};

// Reads one .ccd; PlanError naming the file and line when it is malformed.
ComponentInterface read_component_interface(const std::string& file);

class InterfaceCatalog {
 public:
  // Reads every *.ccd file in `directory` (not below it); a missing directory
  // adds nothing. A malformed file is a PlanError.
  void add_directory(const std::string& directory);
  void add(ComponentInterface component);
  // The component whose home has this entry point, or null.
  const ComponentInterface* find_by_entrypoint(const std::string& entrypoint) const;
  // The component `instance` of `plan` is, through its implementation's home
  // entry point; null if the plan or this catalog does not say.
  const ComponentInterface* find_for(const PlanIndex& plan, const Instance& instance) const;
  const std::vector<std::string>& directories() const noexcept { return directories_; }

 private:
  std::vector<ComponentInterface> components_;
  std::map<std::string, std::size_t> by_entrypoint_;
  std::vector<std::string> directories_;
};

}  // namespace mwccm::deployment
