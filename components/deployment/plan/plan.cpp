// The plan model's names (D&C's spellings) and lookups.
#include <algorithm>
#include <array>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <utility>

namespace mwccm::deployment {
namespace {

constexpr std::array<std::pair<ValueKind, const char*>, 13> kValueKinds{{
    {ValueKind::Boolean, "tk_boolean"},
    {ValueKind::Char, "tk_char"},
    {ValueKind::Octet, "tk_octet"},
    {ValueKind::Short, "tk_short"},
    {ValueKind::UShort, "tk_ushort"},
    {ValueKind::Long, "tk_long"},
    {ValueKind::ULong, "tk_ulong"},
    {ValueKind::LongLong, "tk_longlong"},
    {ValueKind::ULongLong, "tk_ulonglong"},
    {ValueKind::Float, "tk_float"},
    {ValueKind::Double, "tk_double"},
    {ValueKind::String, "tk_string"},
    {ValueKind::Enum, "tk_enum"},
}};

constexpr std::array<std::pair<PortKind, const char*>, 6> kPortKinds{{
    {PortKind::Facet, "Facet"},
    {PortKind::SimplexReceptacle, "SimplexReceptacle"},
    {PortKind::MultiplexReceptacle, "MultiplexReceptacle"},
    {PortKind::EventEmitter, "EventEmitter"},
    {PortKind::EventPublisher, "EventPublisher"},
    {PortKind::EventConsumer, "EventConsumer"},
}};

constexpr std::array<std::pair<LocalityKind, const char*>, 3> kLocalityKinds{{
    {LocalityKind::SameProcess, "SameProcess"},
    {LocalityKind::DifferentProcess, "DifferentProcess"},
    {LocalityKind::NoConstraint, "NoConstraint"},
}};

template <class Enum, std::size_t N>
std::optional<Enum> from_name(const std::array<std::pair<Enum, const char*>, N>& table,
                              const std::string& name) {
  for (const auto& [value, spelling] : table) {
    if (name == spelling) return value;
  }
  return std::nullopt;
}

template <class Enum, std::size_t N>
std::string to_name(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
  for (const auto& [candidate, spelling] : table) {
    if (candidate == value) return spelling;
  }
  return "?";
}

template <class T>
std::unordered_map<std::string_view, const T*> by_id(const std::vector<T>& items) {
  std::unordered_map<std::string_view, const T*> index;
  index.reserve(items.size());
  for (const T& item : items) index.emplace(item.id, &item);  // the first of two keeps its id
  return index;
}

template <class T>
const T* find_by_id(const std::unordered_map<std::string_view, const T*>& index,
                    const std::string& id) {
  const auto found = index.find(id);
  return found == index.end() ? nullptr : found->second;
}

}  // namespace

std::string SourceLocation::to_string() const {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

std::optional<ValueKind> value_kind_from_tk(const std::string& tk) {
  return from_name(kValueKinds, tk);
}
std::string tk_name(ValueKind kind) { return to_name(kValueKinds, kind); }

std::optional<PortKind> port_kind_from_name(const std::string& name) {
  return from_name(kPortKinds, name);
}
std::string port_kind_name(PortKind kind) { return to_name(kPortKinds, kind); }

std::optional<LocalityKind> locality_kind_from_name(const std::string& name) {
  return from_name(kLocalityKinds, name);
}
std::string locality_kind_name(LocalityKind kind) { return to_name(kLocalityKinds, kind); }

void room_for_instance(const Plan& plan, const SourceLocation& where) {
  if (plan.instances.size() >= kMaxInstances) {
    throw PlanError(where, "one instance too many: a plan holds at most " +
                               std::to_string(kMaxInstances) + " instances");
  }
}

void room_for_connection(const Plan& plan, const SourceLocation& where) {
  if (plan.connections.size() >= kMaxConnections) {
    throw PlanError(where, "one connection too many: a plan holds at most " +
                               std::to_string(kMaxConnections) + " connections");
  }
}

PlanIndex::PlanIndex(const Plan& plan)
    : plan_(plan),
      instances_(by_id(plan.instances)),
      implementations_(by_id(plan.implementations)),
      artifacts_(by_id(plan.artifacts)) {}

const Instance* PlanIndex::instance(const std::string& id) const {
  return find_by_id(instances_, id);
}
const Implementation* PlanIndex::implementation(const std::string& id) const {
  return find_by_id(implementations_, id);
}
const Artifact* PlanIndex::artifact(const std::string& id) const {
  return find_by_id(artifacts_, id);
}

bool PlanIndex::is_component_server(const Instance& instance) const {
  const Implementation* implementation = this->implementation(instance.implementation_id);
  if (implementation == nullptr) return false;
  const Property* type =
      find_property(implementation->exec_parameters, properties::kImplementationType);
  return type != nullptr && type->value.text == properties::kComponentServer;
}

const Property* find_property(const std::vector<Property>& properties, const std::string& name) {
  auto found = std::find_if(properties.begin(), properties.end(),
                            [&](const Property& p) { return p.name == name; });
  return found == properties.end() ? nullptr : &*found;
}

std::string PlanProblem::to_string() const {
  const std::string place = where.to_string();
  return place.empty() ? message : place + ": " + message;
}

namespace {
std::string join_problems(const std::vector<PlanProblem>& problems) {
  std::string text;
  for (const auto& problem : problems) {
    if (!text.empty()) text += '\n';
    text += problem.to_string();
  }
  return text;
}
}  // namespace

PlanError::PlanError(std::vector<PlanProblem> problems)
    : std::runtime_error(join_problems(problems)), problems_(std::move(problems)) {}

PlanError::PlanError(SourceLocation where, std::string message)
    : PlanError(std::vector<PlanProblem>{{std::move(where), std::move(message)}}) {}

namespace properties {
namespace {

struct Alias {
  const char* theirs;
  const char* ours;
};
constexpr std::array<Alias, 12> kAliases{{
    {"edu.vanderbilt.dre.DAnCE.InstanceIOR", kInstanceIOR},
    {"nl.remedy.it.DnCX11.InstanceIOR", kInstanceIOR},
    {"edu.vanderbilt.dre.DAnCE.RegisterNaming", kRegisterNaming},
    {"nl.remedy.it.DnCX11.RegisterNaming", kRegisterNaming},
    {"edu.vanderbilt.dre.DAnCE.ImplementationType", kImplementationType},
    {"nl.remedy.it.DnCX11.ImplementationType", kImplementationType},
    {"edu.vanderbilt.dre.DAnCE.LocalityManager.ProcessPriority", kPriority},
    {"nl.remedy.it.DnCX11.LocalityManager.ProcessPriority", kPriority},
    {"edu.vanderbilt.dre.DAnCE.LocalityManager.CPUAffinity", kCpuAffinity},
    {"nl.remedy.it.DnCX11.LocalityManager.CPUAffinity", kCpuAffinity},
    {"edu.vanderbilt.dre.DAnCE.LocalityManager", kComponentServer},
    {"nl.remedy.it.DnCX11.LocalityManager", kComponentServer},
}};

const char* alias_of(const char* name, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) {
    if (std::string(name) == kAliases[i].theirs) return kAliases[i].ours;
  }
  return name;
}

}  // namespace

const char* canonical_name(const char* name) { return alias_of(name, 0, 10); }
const char* canonical_implementation_type(const char* value) { return alias_of(value, 10, 12); }

bool sets_an_attribute(const std::string& name) {
  return name != kInstanceIOR && name != kRegisterNaming && name.rfind(kEventFilterPrefix, 0) != 0;
}

}  // namespace properties

}  // namespace mwccm::deployment
