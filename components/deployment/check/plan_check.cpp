// The plan checker (plan_check.hpp): every rule adds problems to one list,
// so that a user fixes a plan in one pass.
#include <algorithm>
#include <map>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <set>
#include <stdexcept>
#include <tuple>

#include "event_delivery_check.hpp"
#include "server_settings_check.hpp"

namespace mwccm::deployment {
namespace {

bool is_receptacle(PortKind kind) {
  return kind == PortKind::SimplexReceptacle || kind == PortKind::MultiplexReceptacle;
}
bool is_event_source(PortKind kind) {
  return kind == PortKind::EventPublisher || kind == PortKind::EventEmitter;
}
bool is_provider(PortKind kind) {
  return kind == PortKind::Facet || kind == PortKind::EventConsumer;
}

class Checker {
 public:
  Checker(const Plan& plan, const InterfaceCatalog& interfaces, const CheckScope& scope)
      : plan_(plan),
        index_(plan),
        interfaces_(interfaces),
        artifacts_(scope.artifacts),
        nodes_(scope.nodes) {}

  void run() {
    if (plan_.instances.empty()) {
      problem({plan_.file, 1}, "the plan has no instances: nothing to deploy");
      throw PlanError(std::move(problems_));
    }
    check_unique_names();
    for (const auto& implementation : plan_.implementations) check(implementation);
    for (const auto& instance : plan_.instances) check(instance);
    for (const auto& connection : plan_.connections) check(connection);
    check_receptacles_connected_once();
    check_localities();
    check_event_delivery(
        index_, [this](const Instance& instance) { return interface(instance); }, problems_);
    if (!problems_.empty()) throw PlanError(std::move(problems_));
  }

 private:
  // Once: an artifact that several implementations share is one problem.
  void problem(const SourceLocation& where, std::string message) {
    if (!reported_.emplace(where.file, where.line, message).second) return;
    problems_.push_back({where, std::move(message)});
  }

  template <class T, class Key>
  void unique(const std::vector<T>& items, const char* what, Key key) {
    std::map<std::string, const T*> seen;
    for (const auto& item : items) {
      auto [entry, added] = seen.emplace(key(item), &item);
      if (!added) {
        problem(item.where, std::string(what) + " " + quote(key(item)) +
                                " is already declared at " + entry->second->where.to_string());
      }
    }
  }

  void check_unique_names() {
    unique(plan_.implementations, "implementation id", [](const auto& i) { return i.id; });
    unique(plan_.instances, "instance id", [](const auto& i) { return i.id; });
    unique(plan_.instances, "instance name", [](const auto& i) { return i.name; });
    unique(plan_.artifacts, "artifact id", [](const auto& a) { return a.id; });
    unique(plan_.connections, "connection name", [](const auto& c) { return c.name; });
  }

  void check(const Implementation& implementation) {
    for (const auto& id : implementation.artifact_ids) {
      if (index_.artifact(id) == nullptr) {
        problem(implementation.where, "implementation " + quote(implementation.name) +
                                          " refers to artifact " + quote(id) +
                                          ", which the plan does not declare");
      }
    }
    const Property* type =
        find_property(implementation.exec_parameters, properties::kImplementationType);
    if (type != nullptr && type->value.text == properties::kComponentServer) return;
    if (type != nullptr) {
      problem(type->where, std::string(properties::kImplementationType) + " is " +
                               quote(type->value.text) + "; the only value mwccm knows is " +
                               properties::kComponentServer);
      return;
    }
    const Property* entrypoint =
        find_property(implementation.exec_parameters, properties::kHomeEntrypoint);
    if (entrypoint == nullptr) {
      problem(implementation.where, "implementation " + quote(implementation.name) +
                                        " has no execParameter " + properties::kHomeEntrypoint +
                                        " naming its home's entry point");
      return;
    }
    if (interfaces_.find_by_entrypoint(entrypoint->value.text) == nullptr) {
      std::string searched;
      for (const auto& d : interfaces_.directories())
        searched += (searched.empty() ? "" : ", ") + d;
      problem(entrypoint->where,
              "no component interface description (.ccd) names the home entry point " +
                  quote(entrypoint->value.text) +
                  " (searched: " + (searched.empty() ? "no directory" : searched) + ")");
    }
    if (implementation.artifact_ids.empty()) {
      problem(implementation.where, "implementation " + quote(implementation.name) +
                                        " names no artifact holding its home");
      return;
    }
    if (artifacts_ != nullptr) check_artifact_file(implementation, entrypoint->value.text);
  }

  void check_artifact_file(const Implementation& implementation, const std::string& entrypoint) {
    const Artifact* artifact = index_.artifact(implementation.artifact_ids.front());
    if (artifact == nullptr) return;
    try {
      const std::string path = artifacts_->resolve(artifact->location);
      if (!library_exports(path, entrypoint)) {
        problem(artifact->where, "artifact " + quote(artifact->name) + " (" + path +
                                     ") has no entry point " + quote(entrypoint));
      }
    } catch (const std::runtime_error& e) {
      problem(artifact->where, e.what());
    }
  }

  void check(const Instance& instance) {
    if (instance.node.empty()) {
      problem(instance.where, "instance " + quote(instance.name) + " has an empty <node>");
    } else if (nodes_ != nullptr && nodes_->count(instance.node) == 0) {
      problem(instance.where,
              "instance " + quote(instance.name) + " is on node " + quote(instance.node) +
                  ", which the node map does not name (it names: " + some_of(*nodes_) + ")");
    }
    if (index_.implementation(instance.implementation_id) == nullptr) {
      problem(instance.where, "instance " + quote(instance.name) + " refers to implementation " +
                                  quote(instance.implementation_id) +
                                  ", which the plan does not declare");
      return;
    }
    if (index_.is_component_server(instance)) {
      std::vector<PlanProblem> found;
      check_server_settings(instance, found);
      for (auto& each : found) problem(each.where, std::move(each.message));
      return;
    }
    const ComponentInterface* component = interface(instance);
    for (const auto& property : instance.config_properties) {
      if (property.name.rfind(properties::kEventFilterPrefix, 0) == 0) continue;  // below
      if (property.name == properties::kRegisterNaming ||
          property.name == properties::kInstanceIOR) {
        if (property.value.kind != ValueKind::String) {
          problem(property.where, "configProperty " + property.name + " of " +
                                      quote(instance.name) + " is a tk_string");
        }
        continue;
      }
      if (component == nullptr) continue;
      const AttributeDescription* attribute = component->find_attribute(property.name);
      if (attribute == nullptr) {
        std::string names;
        for (const auto& a : component->attributes) names += (names.empty() ? "" : ", ") + a.name;
        problem(property.where, "configProperty " + quote(property.name) + " of instance " +
                                    quote(instance.name) + ": " + component->label +
                                    " has no writable attribute " + quote(property.name) +
                                    " (it has: " + (names.empty() ? "none" : names) + ")");
      } else if (attribute->kind != property.value.kind ||
                 (attribute->kind == ValueKind::Enum &&
                  attribute->enum_type_id != property.value.enum_type_id)) {
        problem(property.where,
                "configProperty " + quote(property.name) + " of instance " + quote(instance.name) +
                    " is a " + tk_name(property.value.kind) + "; the attribute is a " +
                    tk_name(attribute->kind) +
                    (attribute->kind == ValueKind::Enum ? " " + attribute->enum_type_id : ""));
      } else if (attribute->kind == ValueKind::Enum &&
                 std::find(attribute->enum_members.begin(), attribute->enum_members.end(),
                           property.value.text) == attribute->enum_members.end()) {
        problem(property.where, "configProperty " + quote(property.name) + " of instance " +
                                    quote(instance.name) + ": " + quote(property.value.text) +
                                    " is not an enumerator of " + attribute->enum_type_id);
      }
    }
  }

  const ComponentInterface* interface(const Instance& instance) const {
    const Implementation* implementation = index_.implementation(instance.implementation_id);
    if (implementation == nullptr) return nullptr;
    const Property* entrypoint =
        find_property(implementation->exec_parameters, properties::kHomeEntrypoint);
    return entrypoint == nullptr ? nullptr : interfaces_.find_by_entrypoint(entrypoint->value.text);
  }

  // An endpoint's instance and port, or null after adding the problem.
  const PortDescription* port(const Connection& connection, const Endpoint& endpoint) {
    const std::string head = "connection " + quote(connection.name) + ": ";
    const Instance* instance = index_.instance(endpoint.instance_id);
    if (instance == nullptr) {
      problem(endpoint.where,
              head + "instance " + quote(endpoint.instance_id) + " is not declared in the plan");
      return nullptr;
    }
    if (index_.is_component_server(*instance)) {
      problem(endpoint.where,
              head + quote(instance->name) + " is a component server, which has no ports");
      return nullptr;
    }
    const ComponentInterface* component = interface(*instance);
    if (component == nullptr) return nullptr;  // reported with its implementation
    const PortDescription* found = component->find_port(endpoint.port_name);
    if (found == nullptr) {
      problem(endpoint.where, head + "instance " + quote(instance->name) + " (" + component->label +
                                  ") has no port " + quote(endpoint.port_name) +
                                  " (it has: " + component->port_names() + ")");
      return nullptr;
    }
    if (found->kind != endpoint.kind) {
      problem(endpoint.where, head + "port " + quote(endpoint.port_name) + " of " +
                                  quote(instance->name) + " is a " + port_kind_name(found->kind) +
                                  ", not a " + port_kind_name(endpoint.kind));
      return nullptr;
    }
    if (endpoint.provider != is_provider(endpoint.kind)) {
      problem(endpoint.where, head + "<provider> of a " + port_kind_name(endpoint.kind) +
                                  " endpoint is " +
                                  (is_provider(endpoint.kind) ? "true" : "false"));
    }
    return found;
  }

  void check(const Connection& connection) {
    const std::string head = "connection " + quote(connection.name) + ": ";
    const std::size_t internal = connection.internal_endpoints.size();
    const std::size_t external = connection.external_references.size();
    if (!((internal == 2 && external == 0) || (internal == 1 && external == 1))) {
      problem(connection.where,
              head + "has " + std::to_string(internal) + " internalEndpoint and " +
                  std::to_string(external) +
                  " externalReference; a connection joins two internal endpoints, "
                  "or one and an external reference");
      return;
    }
    std::vector<const PortDescription*> ports;
    for (const auto& endpoint : connection.internal_endpoints)
      ports.push_back(port(connection, endpoint));
    if (external == 1) {
      const Endpoint& user = connection.internal_endpoints.front();
      if (!is_receptacle(user.kind) && !is_event_source(user.kind)) {
        problem(user.where,
                head + "an external reference is used by a receptacle or an event source, not a " +
                    port_kind_name(user.kind));
      }
      if (!connection.external_references.front().provider) {
        problem(connection.external_references.front().where,
                head + "mwccm connects to an external reference that provides (<provider>true)");
      }
      return;
    }
    if (ports[0] == nullptr || ports[1] == nullptr) return;
    const Endpoint* a = &connection.internal_endpoints[0];
    const Endpoint* b = &connection.internal_endpoints[1];
    const PortDescription* pa = ports[0];
    const PortDescription* pb = ports[1];
    if (is_provider(a->kind)) {
      std::swap(a, b);
      std::swap(pa, pb);
    }
    // a is the user (receptacle or source), b the provider (facet or sink).
    const bool receptacle_to_facet = is_receptacle(a->kind) && b->kind == PortKind::Facet;
    const bool source_to_sink = is_event_source(a->kind) && b->kind == PortKind::EventConsumer;
    if (!receptacle_to_facet && !source_to_sink) {
      problem(
          connection.where,
          head + "joins a " + port_kind_name(a->kind) + " and a " + port_kind_name(b->kind) +
              "; a connection joins a receptacle and a facet, or an event source and a consumer");
      return;
    }
    const std::string user = quote(a->port_name) + " of " + quote(instance_name(*a));
    const std::string provider = quote(b->port_name) + " of " + quote(instance_name(*b));
    const auto& supported = pb->supported_types;
    if (receptacle_to_facet && pb->specific_type != pa->specific_type &&
        std::find(supported.begin(), supported.end(), pa->specific_type) == supported.end()) {
      problem(connection.where, head + "receptacle " + user + " takes " + pa->specific_type +
                                    "; facet " + provider + " provides " + pb->specific_type);
    }
    if (source_to_sink && pa->specific_type != pb->specific_type) {
      problem(connection.where, head + "source " + user + " sends " + pa->specific_type +
                                    "; consumer " + provider + " takes " + pb->specific_type);
    }
  }

  std::string instance_name(const Endpoint& endpoint) const {
    const Instance* instance = index_.instance(endpoint.instance_id);
    return instance == nullptr ? endpoint.instance_id : instance->name;
  }

  void check_receptacles_connected_once() {
    std::map<std::pair<std::string, std::string>, const Connection*> connected;
    for (const auto& connection : plan_.connections) {
      for (const auto& endpoint : connection.internal_endpoints) {
        if (endpoint.kind != PortKind::SimplexReceptacle && endpoint.kind != PortKind::EventEmitter)
          continue;
        auto [entry, added] = connected.emplace(
            std::make_pair(endpoint.instance_id, endpoint.port_name), &connection);
        if (!added) {
          problem(endpoint.where,
                  "connection " + quote(connection.name) + ": " + port_kind_name(endpoint.kind) +
                      " " + quote(endpoint.port_name) + " of " + quote(instance_name(endpoint)) +
                      " is already connected by connection " + quote(entry->second->name) + " (" +
                      entry->second->where.to_string() + "); it takes one");
        }
      }
    }
  }

  void check_localities() {
    std::set<std::string> ids;
    for (const auto& instance : plan_.instances) ids.insert(instance.id);
    bool resolved = true;
    for (const auto& constraint : plan_.locality_constraints) {
      for (const auto& id : constraint.instance_ids) {
        if (ids.count(id) == 0) {
          problem(constraint.where, "localityConstraint " + locality_kind_name(constraint.kind) +
                                        " names instance " + quote(id) +
                                        ", which the plan does not declare");
          resolved = false;
        }
      }
    }
    if (!resolved) return;
    std::vector<Locality> localities;
    try {
      localities = split_by_locality(plan_);
    } catch (const PlanError& error) {
      problems_.insert(problems_.end(), error.problems().begin(), error.problems().end());
      return;
    }
    std::map<std::string, std::size_t> process_of;
    for (std::size_t i = 0; i < localities.size(); ++i) {
      for (const Instance* instance : localities[i].components) process_of[instance->id] = i;
    }
    for (const auto& connection : plan_.connections) {
      const bool local =
          std::any_of(connection.deploy_requirements.begin(), connection.deploy_requirements.end(),
                      [](const Requirement& r) {
                        return r.name == properties::kConnectionType &&
                               r.resource_type == properties::kLocalInterface;
                      });
      if (!local) continue;
      if (connection.internal_endpoints.size() != 2 ||
          process_of[connection.internal_endpoints[0].instance_id] !=
              process_of[connection.internal_endpoints[1].instance_id]) {
        problem(connection.where,
                "connection " + quote(connection.name) + " is a " + properties::kLocalInterface +
                    " (plain C++) connection between instances in different processes");
      }
    }
  }

  const Plan& plan_;
  const PlanIndex index_;
  const InterfaceCatalog& interfaces_;
  const TrustedDirectories* artifacts_;
  const std::set<std::string>* nodes_;
  std::vector<PlanProblem> problems_;
  std::set<std::tuple<std::string, int, std::string>> reported_;  // each problem once
};

}  // namespace

void complete_plan(Plan& plan, const InterfaceCatalog& interfaces) {
  const PlanIndex index(plan);  // the plan's elements stay where they are
  auto component_of = [&](const std::string& instance_id) -> const ComponentInterface* {
    const Instance* instance = index.instance(instance_id);
    const Implementation* implementation =
        instance == nullptr ? nullptr : index.implementation(instance->implementation_id);
    const Property* entrypoint =
        implementation == nullptr
            ? nullptr
            : find_property(implementation->exec_parameters, properties::kHomeEntrypoint);
    return entrypoint == nullptr ? nullptr : interfaces.find_by_entrypoint(entrypoint->value.text);
  };
  for (auto& connection : plan.connections) {
    for (auto& endpoint : connection.internal_endpoints) {
      if (!endpoint.kind_implied) continue;
      const ComponentInterface* component = component_of(endpoint.instance_id);
      const PortDescription* port =
          component == nullptr ? nullptr : component->find_port(endpoint.port_name);
      // A port that is not there, or of the other family, is left to check_plan.
      if (port == nullptr) continue;
      const bool same_family =
          is_receptacle(endpoint.kind) ? is_receptacle(port->kind) : is_event_source(port->kind);
      if (same_family) endpoint.kind = port->kind;
      endpoint.kind_implied = false;
    }
  }
  for (auto& instance : plan.instances) {
    const ComponentInterface* component = component_of(instance.id);
    if (component == nullptr) continue;
    for (auto& property : instance.config_properties) {
      if (property.value.kind != ValueKind::Enum || !property.value.enum_type_id.empty()) continue;
      const AttributeDescription* attribute = component->find_attribute(property.name);
      if (attribute == nullptr || attribute->kind != ValueKind::Enum) continue;
      property.value.enum_type_id = attribute->enum_type_id;
      property.value.enum_members = attribute->enum_members;
    }
  }
}

void check_plan(const Plan& plan, const InterfaceCatalog& interfaces, const CheckScope& scope) {
  Checker(plan, interfaces, scope).run();
}

}  // namespace mwccm::deployment
