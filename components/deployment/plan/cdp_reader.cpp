// The D&C XML plan (.cdp) reader. Element names are D&C's (the plan's
// children are unqualified, as DAnCE and DnCX11 write them); references are
// xmi:id / xmi:idref. An element mwccm does not use but real plans carry
// (source, realizes, deployedResource, ...) is read and ignored; any other
// element is an error, so that a misspelt name is never silently dropped.
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <stdexcept>
#include <utility>

#include "dnc_elements.hpp"

namespace mwccm::deployment {
namespace {

using detail::idref;
using detail::read_boolean;
using detail::read_children;
using detail::read_property;
using detail::Required;
using detail::XmlDocument;
using detail::XmlElement;
Requirement read_requirement(const XmlElement& element) {
  Requirement requirement;
  requirement.where = element.where();
  Required name(element, "name");
  Required resource_type(element, "resourceType");
  read_children(element, {{"name", name.reader()},
                          {"resourceType", resource_type.reader()},
                          {"property", [&](const XmlElement& e) {
                             requirement.properties.push_back(read_property(e));
                           }}});
  requirement.name = name.get();
  requirement.resource_type = resource_type.get();
  return requirement;
}

std::string element_id(const XmlElement& element) {
  std::string id = element.attribute("id");
  if (id.empty()) throw PlanError(element.where(), "<" + element.name() + "> has no xmi:id");
  return id;
}

Implementation read_implementation(const XmlElement& element) {
  Implementation implementation;
  implementation.where = element.where();
  implementation.id = element_id(element);
  Required name(element, "name");
  read_children(
      element,
      {{"name", name.reader()},
       {"artifact", [&](const XmlElement& e) { implementation.artifact_ids.push_back(idref(e)); }},
       {"execParameter",
        [&](const XmlElement& e) { implementation.exec_parameters.push_back(read_property(e)); }},
       {"deployRequirement",
        [&](const XmlElement& e) {
          implementation.deploy_requirements.push_back(read_requirement(e));
        }}},
      {"source"});
  implementation.name = name.get();
  return implementation;
}

Instance read_instance(const XmlElement& element) {
  Instance instance;
  instance.where = element.where();
  instance.id = element_id(element);
  Required name(element, "name");
  Required node(element, "node");
  bool has_implementation = false;
  read_children(
      element,
      {{"name", name.reader()},
       {"node", node.reader()},
       {"implementation",
        [&](const XmlElement& e) {
          if (has_implementation)
            throw PlanError(e.where(), "<instance> has a second <implementation>");
          instance.implementation_id = idref(e);
          has_implementation = true;
        }},
       {"configProperty",
        [&](const XmlElement& e) { instance.config_properties.push_back(read_property(e)); }}},
      {"source", "deployedResource", "deployedSharedResource"});
  instance.name = name.get();
  instance.node = node.get();
  if (!has_implementation) {
    throw PlanError(element.where(),
                    "<instance> " + quote(instance.name) + " has no <implementation>");
  }
  return instance;
}

Endpoint read_endpoint(const XmlElement& element) {
  Endpoint endpoint;
  endpoint.where = element.where();
  Required port(element, "portName");
  Required kind(element, "kind");
  std::optional<bool> provider;
  read_children(element,
                {{"portName", port.reader()},
                 {"provider", [&](const XmlElement& e) { provider = read_boolean(e); }},
                 {"kind", kind.reader()},
                 {"instance", [&](const XmlElement& e) { endpoint.instance_id = idref(e); }}});
  endpoint.port_name = port.get();
  const std::string kind_name = kind.get();
  auto port_kind = port_kind_from_name(kind_name);
  if (!port_kind) {
    throw PlanError(kind.where(), "<kind> " + shortened(kind_name) +
                                      " is not a port kind (Facet, SimplexReceptacle, "
                                      "MultiplexReceptacle, EventEmitter, EventPublisher, "
                                      "EventConsumer)");
  }
  endpoint.kind = *port_kind;
  if (!provider) throw PlanError(element.where(), "<internalEndpoint> has no <provider>");
  endpoint.provider = *provider;
  if (endpoint.instance_id.empty())
    throw PlanError(element.where(), "<internalEndpoint> has no <instance>");
  return endpoint;
}

ExternalReference read_external_reference(const XmlElement& element) {
  ExternalReference reference;
  reference.where = element.where();
  Required location(element, "location");
  Required port(element, "portName");
  read_children(
      element,
      {{"location", location.reader()},
       {"provider", [&](const XmlElement& e) { reference.provider = read_boolean(e); }},
       {"portName", port.reader()},
       {"supportedType", [&](const XmlElement& e) { reference.supported_type = e.text(); }}});
  reference.location = location.get();
  reference.port_name = port.get();
  return reference;
}

Connection read_connection(const XmlElement& element) {
  Connection connection;
  connection.where = element.where();
  Required name(element, "name");
  read_children(
      element,
      {{"name", name.reader()},
       {"internalEndpoint",
        [&](const XmlElement& e) { connection.internal_endpoints.push_back(read_endpoint(e)); }},
       {"externalReference",
        [&](const XmlElement& e) {
          connection.external_references.push_back(read_external_reference(e));
        }},
       {"deployRequirement",
        [&](const XmlElement& e) {
          connection.deploy_requirements.push_back(read_requirement(e));
        }}},
      {"source", "externalEndpoint", "deployedResource"});
  connection.name = name.get();
  return connection;
}

Artifact read_artifact(const XmlElement& element) {
  Artifact artifact;
  artifact.where = element.where();
  artifact.id = element_id(element);
  Required name(element, "name");
  Required location(element, "location");
  read_children(
      element,
      {{"name", name.reader()},
       {"location", location.reader()},
       {"execParameter",
        [&](const XmlElement& e) { artifact.exec_parameters.push_back(read_property(e)); }}},
      {"source", "node", "deployRequirement", "deployedResource"});
  artifact.name = name.get();
  artifact.location = location.get();
  return artifact;
}

LocalityConstraint read_locality(const XmlElement& element) {
  LocalityConstraint locality;
  locality.where = element.where();
  Required constraint(element, "constraint");
  read_children(element, {{"constraint", constraint.reader()},
                          {"constrainedInstance", [&](const XmlElement& e) {
                             locality.instance_ids.push_back(idref(e));
                           }}});
  const std::string kind = constraint.get();
  auto locality_kind = locality_kind_from_name(kind);
  if (!locality_kind) {
    throw PlanError(constraint.where(),
                    "<constraint> " + shortened(kind) +
                        " is not SameProcess, DifferentProcess or NoConstraint");
  }
  locality.kind = *locality_kind;
  return locality;
}

}  // namespace

Plan read_cdp(const std::string& file) {
  XmlDocument document(file, kPlanFile);
  const XmlElement root = document.root();
  if (root.name() != "DeploymentPlan") {
    throw PlanError(root.where(),
                    "the root element is <" + root.name() + ">, not <Deployment:DeploymentPlan>");
  }
  Plan plan;
  plan.file = file;
  read_children(
      document,
      {{"label", [&](const XmlElement& e) { plan.label = e.text(); }},
       {"UUID", [&](const XmlElement& e) { plan.uuid = e.text(); }},
       {"implementation",
        [&](const XmlElement& e) { plan.implementations.push_back(read_implementation(e)); }},
       {"instance",
        [&](const XmlElement& e) {
          room_for_instance(plan, e.where());
          plan.instances.push_back(read_instance(e));
        }},
       {"connection",
        [&](const XmlElement& e) {
          room_for_connection(plan, e.where());
          plan.connections.push_back(read_connection(e));
        }},
       {"artifact", [&](const XmlElement& e) { plan.artifacts.push_back(read_artifact(e)); }},
       {"localityConstraint",
        [&](const XmlElement& e) { plan.locality_constraints.push_back(read_locality(e)); }},
       {"infoProperty",
        [&](const XmlElement& e) { plan.info_properties.push_back(read_property(e)); }}},
      {"realizes", "dependsOn"});
  return plan;
}

}  // namespace mwccm::deployment
