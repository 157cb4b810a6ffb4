// Reading component interface descriptions (.ccd) and finding them by a
// home's entry point.
#include <algorithm>
#include <filesystem>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>

#include "dnc_elements.hpp"

namespace mwccm::deployment {
namespace {

using detail::read_boolean;
using detail::read_children;
using detail::read_property;
using detail::Required;
using detail::XmlElement;

// The infoProperty that names a home of the component, once per home.
constexpr const char* kHomeEntrypoint = "mwccm.HomeEntrypoint";

PortDescription read_port(const XmlElement& element) {
  PortDescription port;
  Required name(element, "name");
  Required specific_type(element, "specificType");
  Required kind(element, "kind");
  read_children(
      element,
      {{"name", name.reader()},
       {"specificType", specific_type.reader()},
       {"supportedType", [&](const XmlElement& e) { port.supported_types.push_back(e.text()); }},
       {"provider", [](const XmlElement& e) { read_boolean(e); }},
       {"kind", kind.reader()}},
      {"exclusiveProvider", "exclusiveUser", "optional"});
  port.name = name.get();
  port.specific_type = specific_type.get();
  auto port_kind = port_kind_from_name(kind.get());
  if (!port_kind)
    throw PlanError(element.where(), "<kind> " + shortened(kind.get()) + " is not a port kind");
  port.kind = *port_kind;
  return port;
}

AttributeDescription read_attribute(const XmlElement& element) {
  AttributeDescription attribute;
  Required name(element, "name");
  bool typed = false;
  read_children(element, {{"name", name.reader()}, {"type", [&](const XmlElement& e) {
                                                      detail::ValueType type =
                                                          detail::read_value_type(e);
                                                      attribute.kind = type.kind;
                                                      attribute.enum_type_id = type.enum_type_id;
                                                      attribute.enum_members = type.enum_members;
                                                      typed = true;
                                                    }}});
  attribute.name = name.get();
  if (!typed)
    throw PlanError(element.where(), "<property> " + quote(attribute.name) + " has no <type>");
  return attribute;
}

}  // namespace

const PortDescription* ComponentInterface::find_port(const std::string& name) const {
  auto found = std::find_if(ports.begin(), ports.end(),
                            [&](const PortDescription& p) { return p.name == name; });
  return found == ports.end() ? nullptr : &*found;
}

const AttributeDescription* ComponentInterface::find_attribute(const std::string& name) const {
  auto found = std::find_if(attributes.begin(), attributes.end(),
                            [&](const AttributeDescription& a) { return a.name == name; });
  return found == attributes.end() ? nullptr : &*found;
}

std::string ComponentInterface::port_names() const {
  std::string names;
  for (const auto& port : ports) {
    names += (names.empty() ? "" : ", ") + port.name + " (" + port_kind_name(port.kind) + ")";
  }
  return names.empty() ? "no ports" : names;
}

ComponentInterface read_component_interface(const std::string& file) {
  detail::XmlDocument document(file, kInterfaceFile);
  const XmlElement root = document.root();
  if (root.name() != "ComponentInterfaceDescription") {
    throw PlanError(root.where(), "the root element is <" + root.name() +
                                      ">, not <Deployment:ComponentInterfaceDescription>");
  }
  ComponentInterface component;
  component.file = file;
  Required specific_type(root, "specificType");
  read_children(document,
                {{"label", [&](const XmlElement& e) { component.label = e.text(); }},
                 {"specificType", specific_type.reader()},
                 {"port", [&](const XmlElement& e) { component.ports.push_back(read_port(e)); }},
                 {"property",
                  [&](const XmlElement& e) { component.attributes.push_back(read_attribute(e)); }},
                 {"infoProperty",
                  [&](const XmlElement& e) {
                    Property property = read_property(e);
                    if (property.name == kHomeEntrypoint)
                      component.home_entrypoints.push_back(property.value.text);
                  }}},
                {"UUID", "supportedType", "idlFile", "configProperty", "contentLocation"});
  component.specific_type = specific_type.get();
  if (component.home_entrypoints.empty()) {
    throw PlanError(root.where(), std::string("no infoProperty ") + kHomeEntrypoint +
                                      " names a home of this component");
  }
  return component;
}

void InterfaceCatalog::add_directory(const std::string& directory) {
  directories_.push_back(directory);
  std::error_code error;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".ccd" && entry.is_regular_file())
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // the same catalog whatever the directory order
  for (const auto& file : files) add(read_component_interface(file));
}

void InterfaceCatalog::add(ComponentInterface component) {
  components_.push_back(std::move(component));
  const ComponentInterface& added = components_.back();
  for (const auto& entrypoint : added.home_entrypoints) {
    by_entrypoint_.emplace(entrypoint, components_.size() - 1);
  }
}

const ComponentInterface* InterfaceCatalog::find_by_entrypoint(
    const std::string& entrypoint) const {
  auto found = by_entrypoint_.find(entrypoint);
  return found == by_entrypoint_.end() ? nullptr : &components_[found->second];
}

}  // namespace mwccm::deployment
