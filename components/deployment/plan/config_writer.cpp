// The DnCX11 .config plan writer: one declaration per instance, with its
// node, locality, properties and the connections it uses (receptacles and
// event sources); localities are named after the processes the plan's
// constraints make, so that reading the text back gives the same processes.
#include <map>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <set>
#include <sstream>

#include "config_keys.hpp"

namespace mwccm::deployment {
namespace {

namespace keys = detail::config_keys;

std::string literal(const std::string& text, char quote = '"') {
  std::string result(1, quote);
  for (char c : text) {
    if (c == quote || c == '\\') result += '\\';
    result += c;
  }
  return result + quote;
}

std::string value_text(const TypedValue& value) {
  switch (value.kind) {
    case ValueKind::Boolean:
      return "bool:" + value.text;
    case ValueKind::Char:
      return "char:" + literal(value.text, '\'');
    case ValueKind::Octet:
      return "octet:" + value.text;
    case ValueKind::Short:
      return "int16:" + value.text;
    case ValueKind::UShort:
      return "uint16:" + value.text;
    case ValueKind::Long:
      return "int32:" + value.text;
    case ValueKind::ULong:
      return "uint32:" + value.text;
    case ValueKind::LongLong:
      return "int64:" + value.text;
    case ValueKind::ULongLong:
      return "uint64:" + value.text;
    case ValueKind::Float:
      return "float:" + value.text;
    case ValueKind::Double:
      return "double:" + value.text;
    case ValueKind::String:
      return literal(value.text);
    case ValueKind::Enum:
      return "enum:" + value.text;
  }
  return value.text;
}

bool is_user(PortKind kind) { return kind != PortKind::Facet && kind != PortKind::EventConsumer; }

class ConfigWriter {
 public:
  explicit ConfigWriter(const Plan& plan) : plan_(plan), index_(plan) {}

  std::string write() {
    out_ << "# " << (plan_.label.empty() ? "mwccm deployment plan" : plan_.label) << "\n";
    if (!plan_.label.empty()) property(keys::kProperty, keys::kLabel, literal(plan_.label), "");
    if (!plan_.uuid.empty()) property(keys::kProperty, keys::kUuid, literal(plan_.uuid), "");
    for (const auto& info : plan_.info_properties)
      property(keys::kProperty, info.name, value_text(info.value), "");
    name_localities();
    for (const auto& connection : plan_.connections) {
      if (const Endpoint* user = user_of(connection))
        connections_of_[user->instance_id].push_back(&connection);
    }
    for (const auto& instance : plan_.instances) write(instance);
    return out_.str();
  }

 private:
  [[noreturn]] void refuse(const SourceLocation& where, const std::string& why) {
    throw PlanError(where, "cannot be written as .config: " + why);
  }

  void property(const char* key, const std::string& name, const std::string& value,
                const char* indent) {
    out_ << indent << key << ' ' << name << ' ' << value << '\n';
  }

  // A locality name for every instance outside its node's default process.
  void name_localities() {
    for (const auto& constraint : plan_.locality_constraints) {
      if (constraint.kind == LocalityKind::NoConstraint) continue;
      constrained_.insert(constraint.instance_ids.begin(), constraint.instance_ids.end());
    }
    for (const Locality& locality : split_by_locality(plan_)) {
      const bool is_default = locality.server == nullptr && locality.components.size() > 0 &&
                              is_in_default(*locality.components.front());
      if (is_default) continue;
      if (locality.server != nullptr) locality_of_[locality.server->id] = locality.name;
      for (const Instance* instance : locality.components)
        locality_of_[instance->id] = locality.name;
    }
  }

  bool is_in_default(const Instance& instance) const {
    return constrained_.count(instance.id) == 0;
  }

  // The endpoint that uses (a receptacle, an event source; the last, as
  // write(Connection) takes it), or null.
  static const Endpoint* user_of(const Connection& connection) {
    const Endpoint* user = nullptr;
    for (const auto& endpoint : connection.internal_endpoints) {
      if (is_user(endpoint.kind)) user = &endpoint;
    }
    return user;
  }

  void write(const Instance& instance) {
    const Implementation* implementation = index_.implementation(instance.implementation_id);
    if (implementation == nullptr)
      refuse(instance.where, "instance '" + instance.name + "' has no implementation");
    out_ << '\n';
    if (index_.is_component_server(instance)) {
      out_ << keys::kLocalityManager << ' ' << instance.name << '\n';
    } else {
      const Property* entrypoint =
          find_property(implementation->exec_parameters, properties::kHomeEntrypoint);
      if (entrypoint == nullptr || implementation->artifact_ids.size() != 1) {
        refuse(implementation->where, "implementation '" + implementation->name +
                                          "' needs one artifact and its " +
                                          properties::kHomeEntrypoint);
      }
      const Artifact* artifact = index_.artifact(implementation->artifact_ids.front());
      if (artifact == nullptr) refuse(implementation->where, "its artifact is not declared");
      out_ << keys::kComponent << ' ' << instance.name << ' ' << artifact->id << ' '
           << entrypoint->value.text << '\n';
      if (artifact->location != artifact->id) {
        out_ << "    " << keys::kArtifact << ' ' << artifact->id << ' '
             << literal(artifact->location) << '\n';
      }
      if (written_implementations_.insert(implementation->id).second) {
        for (const auto& parameter : implementation->exec_parameters) {
          if (parameter.name == properties::kHomeEntrypoint) continue;
          property(keys::kExecParameter, parameter.name, value_text(parameter.value), "    ");
        }
      }
    }
    out_ << "    " << keys::kNode << ' ' << literal(instance.node) << '\n';
    if (auto locality = locality_of_.find(instance.id); locality != locality_of_.end()) {
      out_ << "    " << keys::kLocality << ' ' << literal(locality->second) << '\n';
    }
    for (const auto& config : instance.config_properties) {
      property(keys::kConfigProperty, config.name, value_text(config.value), "    ");
    }
    const auto used = connections_of_.find(instance.id);
    if (used == connections_of_.end()) return;
    for (const Connection* connection : used->second) write(*connection);
  }

  // A connection, under the instance that uses it.
  void write(const Connection& connection) {
    const Endpoint* user = nullptr;
    const Endpoint* provider = nullptr;
    for (const auto& endpoint : connection.internal_endpoints) {
      (is_user(endpoint.kind) ? user : provider) = &endpoint;
    }
    if (!connection.external_references.empty()) {
      const ExternalReference& external = connection.external_references.front();
      out_ << "    " << keys::kExternalConnection << "\n      " << user->port_name << ' '
           << keys::kUses << ' ' << (external.port_name.empty() ? "" : external.port_name + " ")
           << literal(external.location) << '\n';
    } else {
      if (provider == nullptr)
        refuse(connection.where, "connection '" + connection.name + "' has no provider");
      const Instance* peer = index_.instance(provider->instance_id);
      if (peer == nullptr)
        refuse(connection.where, "connection '" + connection.name + "' names an unknown instance");
      const bool events = provider->kind == PortKind::EventConsumer;
      out_ << "    " << keys::kConnection << ' ' << peer->name << "\n      " << user->port_name
           << ' ' << (events ? keys::kSends : keys::kUses) << ' ' << provider->port_name << '\n';
    }
    for (const auto& requirement : connection.deploy_requirements) {
      if (requirement.name != properties::kConnectionType &&
          requirement.name != properties::kEventDelivery) {
        refuse(requirement.where,
               "deployRequirement '" + requirement.name + "' has no .config form");
      }
      out_ << "      " << keys::kProperty << ' ' << requirement.name << ' '
           << literal(requirement.resource_type) << '\n';
      for (const auto& property : requirement.properties) {
        if (requirement.name != properties::kEventDelivery) {
          refuse(property.where,
                 "deployRequirement property '" + property.name + "' has no .config form");
        }
        out_ << "      " << keys::kProperty << ' ' << properties::kEventDeliveryPrefix
             << property.name << ' ' << literal(property.value.text) << '\n';
      }
    }
  }

  const Plan& plan_;
  const PlanIndex index_;
  std::ostringstream out_;
  std::map<std::string, std::string> locality_of_;  // instance id → locality name
  std::set<std::string> constrained_;               // ids a SameProcess or DifferentProcess names
  // Each user instance's connections, in plan order (written under it).
  std::map<std::string, std::vector<const Connection*>> connections_of_;
  std::set<std::string> written_implementations_;
};

}  // namespace

std::string write_config(const Plan& plan) { return ConfigWriter(plan).write(); }

}  // namespace mwccm::deployment
