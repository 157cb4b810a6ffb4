// The D&C XML plan (.cdp) writer: the elements cdp_reader reads, in D&C's
// order, through libxml2's tree (which escapes the text).
#include <libxml/tree.h>

#include <memory>
#include <mwccm/deployment/plan_io.hpp>
#include <string>

namespace mwccm::deployment {
namespace {

const xmlChar* x(const char* text) { return reinterpret_cast<const xmlChar*>(text); }
const xmlChar* x(const std::string& text) { return x(text.c_str()); }

constexpr const char* kDeploymentNamespace = "http://www.omg.org/Deployment";
constexpr const char* kXmiNamespace = "http://www.omg.org/XMI";

class CdpWriter {
 public:
  CdpWriter() : doc_(xmlNewDoc(x("1.0")), xmlFreeDoc) {}

  std::string write(const Plan& plan) {
    xmlNode* root = xmlNewDocNode(doc_.get(), nullptr, x("DeploymentPlan"), nullptr);
    xmlDocSetRootElement(doc_.get(), root);
    xmlSetNs(root, xmlNewNs(root, x(kDeploymentNamespace), x("Deployment")));
    xmi_ = xmlNewNs(root, x(kXmiNamespace), x("xmi"));
    text(root, "label", plan.label);
    text(root, "UUID", plan.uuid);
    for (const auto& implementation : plan.implementations) write(root, implementation);
    for (const auto& instance : plan.instances) write(root, instance);
    for (const auto& connection : plan.connections) write(root, connection);
    for (const auto& artifact : plan.artifacts) write(root, artifact);
    for (const auto& locality : plan.locality_constraints) write(root, locality);
    for (const auto& property : plan.info_properties) write(root, "infoProperty", property);
    xmlChar* buffer = nullptr;
    int size = 0;
    xmlDocDumpFormatMemoryEnc(doc_.get(), &buffer, &size, "UTF-8", 1);
    std::string result(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(size));
    xmlFree(buffer);
    return result;
  }

 private:
  xmlNode* element(xmlNode* parent, const char* name) {
    return xmlNewChild(parent, nullptr, x(name), nullptr);
  }
  xmlNode* text(xmlNode* parent, const char* name, const std::string& value) {
    return xmlNewTextChild(parent, nullptr, x(name), x(value));
  }
  void id(xmlNode* node, const std::string& value) { xmlNewNsProp(node, xmi_, x("id"), x(value)); }
  void reference(xmlNode* parent, const char* name, const std::string& target) {
    xmlNewNsProp(element(parent, name), xmi_, x("idref"), x(target));
  }
  const char* boolean(bool value) { return value ? "true" : "false"; }

  void write(xmlNode* parent, const char* name, const Property& property) {
    xmlNode* node = element(parent, name);
    text(node, "name", property.name);
    xmlNode* value = element(node, "value");
    xmlNode* type = element(value, "type");
    text(type, "kind", tk_name(property.value.kind));
    // D&C's DataValue has no <char>: a tk_char is a one-character <string>.
    const std::string item =
        property.value.kind == ValueKind::Char ? "string" : tk_name(property.value.kind).substr(3);
    if (property.value.kind == ValueKind::Enum) {
      xmlNode* enumeration = element(type, "enum");
      text(enumeration, "name", property.value.enum_type_id);
      text(enumeration, "typeId", property.value.enum_type_id);
      for (const auto& member : property.value.enum_members) text(enumeration, "member", member);
    }
    text(element(value, "value"), item.c_str(), property.value.text);
  }

  void write(xmlNode* parent, const Requirement& requirement) {
    xmlNode* node = element(parent, "deployRequirement");
    text(node, "name", requirement.name);
    text(node, "resourceType", requirement.resource_type);
    for (const auto& property : requirement.properties) write(node, "property", property);
  }

  void write(xmlNode* parent, const Implementation& implementation) {
    xmlNode* node = element(parent, "implementation");
    id(node, implementation.id);
    text(node, "name", implementation.name);
    for (const auto& artifact : implementation.artifact_ids) reference(node, "artifact", artifact);
    for (const auto& parameter : implementation.exec_parameters)
      write(node, "execParameter", parameter);
    for (const auto& requirement : implementation.deploy_requirements) write(node, requirement);
  }

  void write(xmlNode* parent, const Instance& instance) {
    xmlNode* node = element(parent, "instance");
    id(node, instance.id);
    text(node, "name", instance.name);
    text(node, "node", instance.node);
    reference(node, "implementation", instance.implementation_id);
    for (const auto& property : instance.config_properties) write(node, "configProperty", property);
  }

  void write(xmlNode* parent, const Connection& connection) {
    xmlNode* node = element(parent, "connection");
    text(node, "name", connection.name);
    for (const auto& requirement : connection.deploy_requirements) write(node, requirement);
    for (const auto& endpoint : connection.internal_endpoints) {
      xmlNode* end = element(node, "internalEndpoint");
      text(end, "portName", endpoint.port_name);
      text(end, "provider", boolean(endpoint.provider));
      text(end, "kind", port_kind_name(endpoint.kind));
      reference(end, "instance", endpoint.instance_id);
    }
    for (const auto& external : connection.external_references) {
      xmlNode* end = element(node, "externalReference");
      text(end, "location", external.location);
      text(end, "provider", boolean(external.provider));
      text(end, "portName", external.port_name);
      if (!external.supported_type.empty()) text(end, "supportedType", external.supported_type);
    }
  }

  void write(xmlNode* parent, const Artifact& artifact) {
    xmlNode* node = element(parent, "artifact");
    id(node, artifact.id);
    text(node, "name", artifact.name);
    text(node, "location", artifact.location);
    for (const auto& parameter : artifact.exec_parameters) write(node, "execParameter", parameter);
  }

  void write(xmlNode* parent, const LocalityConstraint& locality) {
    xmlNode* node = element(parent, "localityConstraint");
    text(node, "constraint", locality_kind_name(locality.kind));
    for (const auto& instance : locality.instance_ids)
      reference(node, "constrainedInstance", instance);
  }

  std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc_;
  xmlNs* xmi_ = nullptr;
};

}  // namespace

std::string write_cdp(const Plan& plan) { return CdpWriter().write(plan); }

}  // namespace mwccm::deployment
