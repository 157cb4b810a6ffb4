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

std::string quoted(const std::string& text, char quote = '"') {
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
      return "char:" + quoted(value.text, '\'');
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
      return quoted(value.text);
    case ValueKind::Enum:
      return "enum:" + value.text;
  }
  return value.text;
}

bool is_user(PortKind kind) { return kind != PortKind::Facet && kind != PortKind::EventConsumer; }

class ConfigWriter {
 public:
  explicit ConfigWriter(const Plan& plan) : plan_(plan) {}

  std::string write() {
    out_ << "# " << (plan_.label.empty() ? "mwccm deployment plan" : plan_.label) << "\n";
    if (!plan_.label.empty()) property(keys::kProperty, keys::kLabel, quoted(plan_.label), "");
    if (!plan_.uuid.empty()) property(keys::kProperty, keys::kUuid, quoted(plan_.uuid), "");
    for (const auto& info : plan_.info_properties)
      property(keys::kProperty, info.name, value_text(info.value), "");
    name_localities();
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
    for (const auto& constraint : plan_.locality_constraints) {
      if (constraint.kind == LocalityKind::NoConstraint) continue;
      for (const auto& id : constraint.instance_ids) {
        if (id == instance.id) return false;
      }
    }
    return true;
  }

  void write(const Instance& instance) {
    const Implementation* implementation = plan_.find_implementation(instance.implementation_id);
    if (implementation == nullptr)
      refuse(instance.where, "instance '" + instance.name + "' has no implementation");
    out_ << '\n';
    if (plan_.is_component_server(instance)) {
      out_ << keys::kLocalityManager << ' ' << instance.name << '\n';
    } else {
      const Property* entrypoint =
          find_property(implementation->exec_parameters, properties::kHomeEntrypoint);
      if (entrypoint == nullptr || implementation->artifact_ids.size() != 1) {
        refuse(implementation->where, "implementation '" + implementation->name +
                                          "' needs one artifact and its " +
                                          properties::kHomeEntrypoint);
      }
      const Artifact* artifact = plan_.find_artifact(implementation->artifact_ids.front());
      if (artifact == nullptr) refuse(implementation->where, "its artifact is not declared");
      out_ << keys::kComponent << ' ' << instance.name << ' ' << artifact->id << ' '
           << entrypoint->value.text << '\n';
      if (artifact->location != artifact->id) {
        out_ << "    " << keys::kArtifact << ' ' << artifact->id << ' '
             << quoted(artifact->location) << '\n';
      }
      if (written_implementations_.insert(implementation->id).second) {
        for (const auto& parameter : implementation->exec_parameters) {
          if (parameter.name == properties::kHomeEntrypoint) continue;
          property(keys::kExecParameter, parameter.name, value_text(parameter.value), "    ");
        }
      }
    }
    out_ << "    " << keys::kNode << ' ' << quoted(instance.node) << '\n';
    if (auto locality = locality_of_.find(instance.id); locality != locality_of_.end()) {
      out_ << "    " << keys::kLocality << ' ' << quoted(locality->second) << '\n';
    }
    for (const auto& config : instance.config_properties) {
      property(keys::kConfigProperty, config.name, value_text(config.value), "    ");
    }
    for (const auto& connection : plan_.connections) write_if_used_by(instance, connection);
  }

  void write_if_used_by(const Instance& instance, const Connection& connection) {
    if (connection.internal_endpoints.empty()) return;
    const Endpoint* user = nullptr;
    const Endpoint* provider = nullptr;
    for (const auto& endpoint : connection.internal_endpoints) {
      (is_user(endpoint.kind) ? user : provider) = &endpoint;
    }
    if (user == nullptr || user->instance_id != instance.id) return;
    if (!connection.external_references.empty()) {
      const ExternalReference& external = connection.external_references.front();
      out_ << "    " << keys::kExternalConnection << "\n      " << user->port_name << ' '
           << keys::kUses << ' ' << (external.port_name.empty() ? "" : external.port_name + " ")
           << quoted(external.location) << '\n';
    } else {
      if (provider == nullptr)
        refuse(connection.where, "connection '" + connection.name + "' has no provider");
      const Instance* peer = plan_.find_instance(provider->instance_id);
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
           << quoted(requirement.resource_type) << '\n';
      for (const auto& property : requirement.properties) {
        if (requirement.name != properties::kEventDelivery) {
          refuse(property.where,
                 "deployRequirement property '" + property.name + "' has no .config form");
        }
        out_ << "      " << keys::kProperty << ' ' << properties::kEventDeliveryPrefix
             << property.name << ' ' << quoted(property.value.text) << '\n';
      }
    }
  }

  const Plan& plan_;
  std::ostringstream out_;
  std::map<std::string, std::string> locality_of_;  // instance id → locality name
  std::set<std::string> written_implementations_;
};

}  // namespace

std::string write_config(const Plan& plan) { return ConfigWriter(plan).write(); }

}  // namespace mwccm::deployment
