// The deployment plan model: the subset of the OMG D&C Component Deployment
// Plan that mwccm deploys (docs/deployment.md section 1). Both plan formats,
// the XML .cdp and DnCX11's terse .config, read into this model and are
// written from it; the checker, the launcher and the plan compiler only see
// this model. Every element keeps where it was read, so that any error later
// (a check, a deployment phase) can name the file and the line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mwccm::deployment {

// Where an element was read: "plan.cdp:42". Line 0 when the element was made
// by a program rather than read from a file.
struct SourceLocation {
  std::string file;
  int line = 0;
  std::string to_string() const;
};

// The kinds of typed values a property may hold: those of mwccm attributes
// (docs/components.md section 2). D&C spells them tk_<kind>.
enum class ValueKind {
  Boolean,
  Char,
  Octet,
  Short,
  UShort,
  Long,
  ULong,
  LongLong,
  ULongLong,
  Float,
  Double,
  String,
  Enum,
};

// "tk_long" ↔ ValueKind::Long; nullopt for a kind mwccm does not support.
std::optional<ValueKind> value_kind_from_tk(const std::string& tk);
std::string tk_name(ValueKind kind);

// A D&C typed value, kept as checked text (a number in range, "true" or
// "false", one character, an enumerator of the enum's members); turned into a
// CORBA::Any only where it is set.
struct TypedValue {
  ValueKind kind = ValueKind::String;
  std::string text;
  // Enum only: the enum's repository id and its members, in order (a .config
  // plan names the enumerator only; complete_plan adds the type).
  std::string enum_type_id;
  std::vector<std::string> enum_members;
  bool operator==(const TypedValue&) const = default;
};

// A D&C Property: configProperty, execParameter, infoProperty.
struct Property {
  std::string name;
  TypedValue value;
  SourceLocation where;
};

// A D&C Requirement (deployRequirement): read, kept, written back; mwccm
// acts on none (docs/deployment.md says so).
struct Requirement {
  std::string name;
  std::string resource_type;
  std::vector<Property> properties;
  SourceLocation where;
};

// ArtifactDeploymentDescription: a file a node needs; for mwccm, a shared
// library holding home entry points.
struct Artifact {
  std::string id;  // xmi:id, how implementations refer to it
  std::string name;
  std::string location;  // the library: a name or path inside a node's trusted directories
  std::vector<Property> exec_parameters;
  SourceLocation where;
};

// MonolithicDeploymentDescription: how to make instances of one component
// type. For a component: the artifact holding the home, and the home's entry
// point (execParameter mwccm.HomeEntrypoint). For a component server
// (mwccm.ImplementationType = mwccm.ComponentServer): nothing to load; its
// instance configures a process (section 6 of docs/deployment.md).
struct Implementation {
  std::string id;
  std::string name;
  std::vector<std::string> artifact_ids;
  std::vector<Property> exec_parameters;
  std::vector<Requirement> deploy_requirements;
  SourceLocation where;
};

// InstanceDeploymentDescription.
struct Instance {
  std::string id;
  std::string name;
  std::string node;
  std::string implementation_id;
  std::vector<Property> config_properties;
  SourceLocation where;
};

// CCMComponentPortKind.
enum class PortKind {
  Facet,
  SimplexReceptacle,
  MultiplexReceptacle,
  EventEmitter,
  EventPublisher,
  EventConsumer,
};
std::optional<PortKind> port_kind_from_name(const std::string& name);
std::string port_kind_name(PortKind kind);
inline bool is_receptacle(PortKind kind) {
  return kind == PortKind::SimplexReceptacle || kind == PortKind::MultiplexReceptacle;
}
inline bool is_event_source(PortKind kind) {
  return kind == PortKind::EventPublisher || kind == PortKind::EventEmitter;
}
// The side a connection's <provider>true names: a facet or an event consumer.
inline bool is_provider(PortKind kind) {
  return kind == PortKind::Facet || kind == PortKind::EventConsumer;
}

// PlanSubcomponentPortEndpoint: one end of a connection.
struct Endpoint {
  std::string port_name;
  bool provider = false;  // true for a facet or an event consumer
  PortKind kind = PortKind::Facet;
  std::string instance_id;
  // The .config format says "a receptacle" or "an event source" only; the
  // kind is then taken from the component's interface (complete_plan).
  bool kind_implied = false;
  SourceLocation where;
};

// ExternalReferenceEndpoint: an object outside the plan, by its location
// ("corbaname:...", "corbaloc:...", "IOR:...", "file:PATH").
struct ExternalReference {
  std::string location;
  bool provider = true;
  std::string port_name;
  std::string supported_type;
  SourceLocation where;
};

// PlanConnectionDescription: two internal endpoints, or one and an external
// reference.
struct Connection {
  std::string name;
  std::vector<Endpoint> internal_endpoints;
  std::vector<ExternalReference> external_references;
  std::vector<Requirement> deploy_requirements;
  SourceLocation where;
};

// PlanLocalityKind.
enum class LocalityKind { SameProcess, DifferentProcess, NoConstraint };
std::optional<LocalityKind> locality_kind_from_name(const std::string& name);
std::string locality_kind_name(LocalityKind kind);

// PlanLocality: which instances share a process or must not.
struct LocalityConstraint {
  LocalityKind kind = LocalityKind::NoConstraint;
  std::vector<std::string> instance_ids;
  SourceLocation where;
};

struct Plan {
  std::string label;
  std::string uuid;
  std::vector<Implementation> implementations;
  std::vector<Instance> instances;
  std::vector<Connection> connections;
  std::vector<Artifact> artifacts;
  std::vector<LocalityConstraint> locality_constraints;
  std::vector<Property> info_properties;
  std::string file;  // the file it was read from
};

// The most a plan holds (docs/deployment.md section 3): what every tool
// takes, in time and memory, grows with these and stops there. The readers
// refuse the element past a bound (PlanError at its line, naming the bound).
inline constexpr std::size_t kMaxInstances = 100'000;
inline constexpr std::size_t kMaxConnections = 200'000;
// PlanError at `where` when `plan` is full: call before adding one.
void room_for_instance(const Plan& plan, const SourceLocation& where);
void room_for_connection(const Plan& plan, const SourceLocation& where);

// A plan's instances, implementations and artifacts by id, so that a lookup
// costs the same in a plan of five instances and of a hundred thousand (a
// check looks an instance up for every endpoint). Made from a plan whose
// elements then stay where they are; of two with one id, the first.
class PlanIndex {
 public:
  explicit PlanIndex(const Plan& plan);
  const Plan& plan() const noexcept { return plan_; }

  // Null when absent.
  const Instance* instance(const std::string& id) const;
  const Implementation* implementation(const std::string& id) const;
  const Artifact* artifact(const std::string& id) const;
  // Whether `instance` configures a component server process (its
  // implementation's mwccm.ImplementationType is mwccm.ComponentServer)
  // rather than being a component.
  bool is_component_server(const Instance& instance) const;

 private:
  const Plan& plan_;
  std::unordered_map<std::string_view, const Instance*> instances_;
  std::unordered_map<std::string_view, const Implementation*> implementations_;
  std::unordered_map<std::string_view, const Artifact*> artifacts_;
};

// The value of the property `name`, or null.
const Property* find_property(const std::vector<Property>& properties, const std::string& name);

}  // namespace mwccm::deployment
