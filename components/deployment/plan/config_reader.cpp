// The DnCX11 .config plan reader. The format is instance-centred: each
// component line names its artifact and home entry point, and its node,
// locality, properties and connections follow it; implementations,
// artifacts and locality constraints are derived as DnCX11 derives them
// (docs/deployment.md section 1).
#include <charconv>
#include <cstdint>
#include <map>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <stdexcept>
#include <vector>

#include "config_keys.hpp"
#include "config_tokens.hpp"

namespace mwccm::deployment {
namespace {

namespace keys = detail::config_keys;
using detail::ConfigToken;

bool is_key(const ConfigToken& token) {
  return token.kind == ConfigToken::Kind::Word && token.text.rfind(keys::kPrefix, 0) == 0;
}

// "0x1F" → "31"; other text unchanged.
std::string decimal(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  if (digits.size() < 3 || digits[0] != '0' || (digits[1] != 'x' && digits[1] != 'X')) return text;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(digits.data() + 2, digits.data() + digits.size(), value, 16);
  if (error != std::errc{} || end != digits.data() + digits.size()) return text;
  return (negative ? "-" : "") + std::to_string(value);
}

const std::map<std::string, ValueKind>& type_names() {
  static const std::map<std::string, ValueKind> names{
      {"char", ValueKind::Char},        {"octet", ValueKind::Octet},
      {"bool", ValueKind::Boolean},     {"int16", ValueKind::Short},
      {"int32", ValueKind::Long},       {"int64", ValueKind::LongLong},
      {"uint16", ValueKind::UShort},    {"uint32", ValueKind::ULong},
      {"uint64", ValueKind::ULongLong}, {"float", ValueKind::Float},
      {"double", ValueKind::Double},    {"string", ValueKind::String},
      {"enum", ValueKind::Enum}};
  return names;
}

class ConfigReader {
 public:
  explicit ConfigReader(const std::string& file) : file_(file), tokens_(file) {}

  Plan read() {
    plan_.file = file_;
    while (!at_end()) {
      const ConfigToken key = next("a declaration");
      if (key.text == keys::kComponent) {
        read_component();
      } else if (key.text == keys::kLocalityManager) {
        read_locality_manager(key);
      } else if (key.text == keys::kProperty) {
        Property property = read_property(key);
        if (property.name == keys::kLabel) {
          plan_.label = property.value.text;
        } else if (property.name == keys::kUuid) {
          plan_.uuid = property.value.text;
        } else {
          plan_.info_properties.push_back(std::move(property));
        }
      } else if (is_key(key)) {
        fail(key, shortened(key.text) + " is not read by mwccm (it reads " + keys::kComponent +
                      ", " + keys::kLocalityManager + " and " + keys::kProperty +
                      " at the top level)");
      } else {
        fail(key, "expected a declaration such as " + std::string(keys::kComponent) + ", not " +
                      quote(key.text));
      }
    }
    add_locality_constraints();
    return std::move(plan_);
  }

 private:
  [[noreturn]] void fail(const ConfigToken& at, const std::string& message) const {
    throw PlanError(where(at), message);
  }
  SourceLocation where(const ConfigToken& at) const { return {file_, at.line}; }
  bool at_end() { return tokens_.peek() == nullptr; }
  const ConfigToken* peek() { return tokens_.peek(); }
  ConfigToken next(const std::string& expected) {
    if (at_end()) {
      throw PlanError({file_, tokens_.last_line()},
                      "the file ends where " + expected + " was expected");
    }
    return tokens_.take();
  }
  ConfigToken word(const std::string& expected) {
    ConfigToken token = next(expected);
    if (token.kind != ConfigToken::Kind::Word || is_key(token)) {
      fail(token, "expected " + expected + ", not " + quote(token.text));
    }
    return token;
  }
  ConfigToken string(const std::string& expected) {
    ConfigToken token = next(expected);
    if (token.kind != ConfigToken::Kind::String)
      fail(token, "expected " + expected + " as a \"string\"");
    return token;
  }

  TypedValue read_value(const ConfigToken& name) {
    ConfigToken token = next("the value of " + shortened(name.text));
    try {
      if (token.kind == ConfigToken::Kind::String) return make_value(ValueKind::String, token.text);
      if (token.kind == ConfigToken::Kind::Char) return make_value(ValueKind::Char, token.text);
      if (is_key(token))
        fail(token, "expected the value of " + shortened(name.text) + ", not " + quote(token.text));
      const auto colon = token.text.find(':');
      if (colon == std::string::npos) return untyped(token.text);
      const std::string type = token.text.substr(0, colon);
      auto kind = type_names().find(type);
      if (kind == type_names().end()) {
        fail(token, quote(type) +
                        " is not a type (char, octet, bool, int16, int32, int64, uint16, "
                        "uint32, uint64, float, double, string, enum)");
      }
      std::string text = token.text.substr(colon + 1);
      if (text.empty()) {  // "string:" "text" and "char:" 'c' are two tokens
        ConfigToken value = next("the value of " + shortened(name.text));
        if (value.kind == ConfigToken::Kind::Word)
          fail(value, "expected a quoted value after " + quote(token.text));
        text = std::move(value.text);
      }
      if (kind->second == ValueKind::Enum) {
        TypedValue value;
        value.kind = ValueKind::Enum;
        value.text = text;
        return value;  // its type comes from the component's interface (complete_plan)
      }
      return make_value(kind->second, decimal(text));
    } catch (const std::invalid_argument& e) {
      fail(token, "the value of " + shortened(name.text) + " must be " + e.what());
    }
  }

  // A literal without a type, as DnCX11 reads it: a boolean; a decimal
  // integer as int64 (uint64 when larger); a hexadecimal one as uint64; a
  // number with a fraction as double. (So an unsigned long attribute is
  // written uint32:20, as for DnCX11.)
  TypedValue untyped(const std::string& text) {
    if (text == "true" || text == "false") return make_value(ValueKind::Boolean, text);
    const bool hexadecimal =
        text.find("0x") != std::string::npos || text.find("0X") != std::string::npos;
    const std::string number = decimal(text);
    const std::vector<ValueKind> kinds =
        hexadecimal
            ? std::vector<ValueKind>{ValueKind::ULongLong}
            : std::vector<ValueKind>{ValueKind::LongLong, ValueKind::ULongLong, ValueKind::Double};
    for (ValueKind kind : kinds) {
      try {
        return make_value(kind, number);
      } catch (const std::invalid_argument&) {
      }
    }
    throw std::invalid_argument("a number, true, false, \"string\", 'c' or type:value, not " +
                                quote(text));
  }

  Property read_property(const ConfigToken& key) {
    // A property's name may look like a key (nl.remedy.it.DnCX11.InstanceIOR).
    ConfigToken name = next("a property name after " + key.text);
    if (name.kind != ConfigToken::Kind::Word)
      fail(name, "expected a property name after " + key.text);
    Property property;
    property.name = properties::canonical_name(name.text.c_str());
    property.where = where(name);
    property.value = read_value(name);
    if (property.name == properties::kImplementationType) {
      property.value.text = properties::canonical_implementation_type(property.value.text.c_str());
    }
    return property;
  }

  std::string implementation_for(const ConfigToken& at, const std::string& artifact,
                                 const std::string& factory) {
    const std::string id = artifact + "." + factory;
    if (implementation_index_.emplace(id, plan_.implementations.size()).second) {
      Implementation implementation;
      implementation.id = implementation.name = id;
      implementation.where = where(at);
      implementation.artifact_ids.push_back(artifact);
      implementation.exec_parameters.push_back(
          {properties::kHomeEntrypoint, make_value(ValueKind::String, factory), where(at)});
      plan_.implementations.push_back(std::move(implementation));
    }
    if (artifact_index_.emplace(artifact, plan_.artifacts.size()).second) {
      plan_.artifacts.push_back({artifact, artifact, artifact, {}, where(at)});
    }
    return id;
  }

  Implementation& implementation_of(const Instance& instance) {
    return plan_.implementations[implementation_index_.at(instance.implementation_id)];
  }

  void read_component() {
    Instance instance;
    ConfigToken name = word("a component instance name");
    ConfigToken artifact = word("the artifact of " + quote(name.text));
    ConfigToken factory = word("the home entry point of " + quote(name.text));
    if (const ConfigToken* mode = peek(); mode != nullptr && !is_key(*mode)) {
      next("an open mode");  // DnCX11's dlopen mode: mwccm's loader chooses its own
    }
    instance.id = instance.name = name.text;
    instance.where = where(name);
    instance.implementation_id = implementation_for(name, artifact.text, factory.text);
    read_instance_details(instance, true);
  }

  void read_locality_manager(const ConfigToken& key) {
    ConfigToken name = word("a locality manager name after " + key.text);
    Instance instance;
    instance.id = instance.name = name.text;
    instance.where = where(name);
    if (implementation_index_.emplace(properties::kComponentServer, plan_.implementations.size())
            .second) {
      Implementation implementation;
      implementation.id = implementation.name = properties::kComponentServer;
      implementation.where = where(name);
      implementation.exec_parameters.push_back(
          {properties::kImplementationType,
           make_value(ValueKind::String, properties::kComponentServer), where(name)});
      plan_.implementations.push_back(std::move(implementation));
    }
    instance.implementation_id = properties::kComponentServer;
    read_instance_details(instance, false);
  }

  // The declarations nested in a component or locality manager, up to the
  // next top-level declaration.
  void read_instance_details(Instance& instance, bool is_component) {
    std::string locality;
    bool has_node = false;
    while (const ConfigToken* token = peek()) {
      const std::string key = token->text;  // a copy: taking the token moves it
      if (!is_key(*token) || key == keys::kComponent || key == keys::kLocalityManager ||
          key == keys::kProperty)
        break;
      const ConfigToken at = next("a declaration");
      if (key == keys::kNode) {
        instance.node = string("the node of " + quote(instance.name)).text;
        has_node = true;
      } else if (key == keys::kLocality) {
        locality = string("the locality of " + quote(instance.name)).text;
      } else if (key == keys::kConfigProperty) {
        instance.config_properties.push_back(read_property(at));
      } else if (key == keys::kExecParameter) {
        Property parameter = read_property(at);
        Implementation& implementation = implementation_of(instance);
        if (find_property(implementation.exec_parameters, parameter.name) == nullptr) {
          implementation.exec_parameters.push_back(std::move(parameter));
        }
      } else if (key == keys::kArtifact && is_component) {
        read_artifact(at);
      } else if (key == keys::kConnection && is_component) {
        read_connections(instance);
      } else if (key == keys::kExternalConnection && is_component) {
        read_external_connections(instance);
      } else {
        fail(at, shortened(key) + " is not read by mwccm inside " +
                     (is_component ? "a component" : "a locality manager"));
      }
    }
    if (!has_node) {
      throw PlanError({file_, tokens_.last_line()},
                      "instance " + quote(instance.name) + " has no " + keys::kNode);
    }
    room_for_instance(plan_, instance.where);
    if (!locality.empty()) localities_[{instance.node, locality}].push_back(instance.id);
    plan_.instances.push_back(std::move(instance));
  }

  void read_artifact(const ConfigToken& at) {
    ConfigToken id = word("an artifact id after " + std::string(keys::kArtifact));
    ConfigToken location = string("the location of artifact " + quote(id.text));
    if (const ConfigToken* node = peek();
        node != nullptr && node->kind == ConfigToken::Kind::String)
      next("a node");
    const auto [known, added] = artifact_index_.emplace(id.text, plan_.artifacts.size());
    if (!added) {
      plan_.artifacts[known->second].location = location.text;  // refines the one implied
      return;
    }
    plan_.artifacts.push_back({id.text, id.text, location.text, {}, where(at)});
  }

  void read_connections(const Instance& instance) {
    ConfigToken peer = word("the peer instance of a connection of " + quote(instance.name));
    do {
      ConfigToken port = word("a port of " + quote(instance.name));
      ConfigToken link = word("<, >, => or <= after port " + quote(port.text));
      ConfigToken peer_port = word("a port of " + quote(peer.text));
      Connection connection;
      connection.name = instance.name + "." + port.text + ":" + peer.text + "." + peer_port.text;
      connection.where = where(port);
      Endpoint mine{port.text, false, PortKind::SimplexReceptacle, instance.id, false, where(port)};
      Endpoint theirs{peer_port.text, false, PortKind::SimplexReceptacle,
                      peer.text,      false, where(peer_port)};
      if (link.text == keys::kUses || link.text == keys::kProvides) {
        Endpoint& user = link.text == keys::kUses ? mine : theirs;
        Endpoint& facet = link.text == keys::kUses ? theirs : mine;
        user.kind_implied = true;
        facet.kind = PortKind::Facet;
        facet.provider = true;
        connection.internal_endpoints = {user, facet};
      } else if (link.text == keys::kSends || link.text == keys::kConsumes) {
        Endpoint& source = link.text == keys::kSends ? mine : theirs;
        Endpoint& sink = link.text == keys::kSends ? theirs : mine;
        source.kind = PortKind::EventPublisher;
        source.kind_implied = true;
        sink.kind = PortKind::EventConsumer;
        sink.provider = true;
        connection.internal_endpoints = {source, sink};
      } else {
        fail(link, "expected <, >, => or <= between " + quote(port.text) + " and " +
                       quote(peer_port.text) + ", not " + quote(link.text));
      }
      read_connection_properties(connection);
      room_for_connection(plan_, connection.where);
      plan_.connections.push_back(std::move(connection));
    } while (peek() != nullptr && !is_key(*peek()));
  }

  void read_external_connections(const Instance& instance) {
    do {
      ConfigToken port = word("a port of " + quote(instance.name));
      ConfigToken link = word("< after port " + quote(port.text));
      if (link.text != keys::kUses)
        fail(link, "mwccm connects a receptacle to an external reference with <");
      std::string external_port;
      if (const ConfigToken* token = peek();
          token != nullptr && token->kind == ConfigToken::Kind::Word && !is_key(*token)) {
        external_port = next("a port").text;
      }
      ConfigToken location =
          string("the location of the external reference of " + quote(port.text));
      Connection connection;
      connection.name = instance.name + "." + port.text + ":" + external_port + "@" + location.text;
      connection.where = where(port);
      connection.internal_endpoints.push_back(
          {port.text, false, PortKind::SimplexReceptacle, instance.id, true, where(port)});
      connection.external_references.push_back(
          {location.text, true, external_port, "", where(location)});
      read_connection_properties(connection);
      room_for_connection(plan_, connection.where);
      plan_.connections.push_back(std::move(connection));
    } while (peek() != nullptr && !is_key(*peek()));
  }

  // Properties after a link, the connection's deployRequirements as a .cdp
  // writes them: mwccm.ConnectionType "Local_Interface", mwccm.EventDelivery
  // "channel" and, after it, its properties: mwccm.EventDelivery.gateway
  // "udp", mwccm.EventDelivery.topic "t" and so on (the check judges the
  // names and values).
  void read_connection_properties(Connection& connection) {
    while (const ConfigToken* token = peek()) {
      if (token->text != keys::kProperty || !is_key(*token)) break;
      // A plan-level property is never between two links: this one is the connection's.
      const ConfigToken key = next("a property");
      Property property = read_property(key);
      if (property.name == properties::kConnectionType &&
          property.value.text == properties::kLocalInterface) {
        connection.deploy_requirements.push_back(
            {properties::kConnectionType, properties::kLocalInterface, {}, property.where});
      } else if (property.name == properties::kEventDelivery) {
        connection.deploy_requirements.push_back(
            {properties::kEventDelivery, property.value.text, {}, property.where});
      } else if (property.name.rfind(properties::kEventDeliveryPrefix, 0) == 0 &&
                 !connection.deploy_requirements.empty() &&
                 connection.deploy_requirements.back().name == properties::kEventDelivery) {
        property.name.erase(0, std::string(properties::kEventDeliveryPrefix).size());
        connection.deploy_requirements.back().properties.push_back(std::move(property));
      } else {
        fail(key, "a connection property mwccm reads is " +
                      std::string(properties::kConnectionType) + " \"" +
                      properties::kLocalInterface + "\", " + properties::kEventDelivery +
                      " or, after it, its properties " + properties::kEventDeliveryPrefix +
                      "NAME; not " + quote(property.name));
      }
    }
  }

  // As DnCX11: one SameProcess per (node, locality), and per node one
  // DifferentProcess over the first instance of each of its localities.
  void add_locality_constraints() {
    std::map<std::string, std::vector<std::string>> firsts;
    for (const auto& [key, ids] : localities_) {
      plan_.locality_constraints.push_back({LocalityKind::SameProcess, ids, {file_, 0}});
      firsts[key.first].push_back(ids.front());
    }
    for (const auto& [node, ids] : firsts) {
      if (ids.size() > 1)
        plan_.locality_constraints.push_back({LocalityKind::DifferentProcess, ids, {file_, 0}});
    }
  }

  std::string file_;
  detail::ConfigTokens tokens_;
  Plan plan_;
  // Where each implementation and artifact made so far is in plan_, by id.
  std::map<std::string, std::size_t> implementation_index_;
  std::map<std::string, std::size_t> artifact_index_;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>>
      localities_;  // (node, locality) → ids
};

}  // namespace

Plan read_config(const std::string& file) { return ConfigReader(file).read(); }

}  // namespace mwccm::deployment
