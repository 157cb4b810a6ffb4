// Compiling a plan into C++ tables and a CMake project (plan_compiler.hpp).
#include <algorithm>
#include <cstdio>
#include <map>
#include <mwccm/deployment/detail/connection_settings.hpp>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_compiler.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace mwccm::deployment {
namespace {

// A C++ string literal of any text: printable ASCII as itself, the rest
// (and quotes, backslashes) escaped, so that no plan text can end the
// literal or the line.
std::string literal(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\%03o", c);
      out += escaped;
    }
  }
  return out + "\"";
}

// Text for a comment line: anything but printable ASCII becomes '?', so that
// no file name can end the comment.
std::string comment(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return out;
}

// A CMake bracket argument of any text (a path, a name): no ]==] inside it
// can end it, and nothing in it is expanded.
std::string cmake_literal(const std::string& text) {
  std::string equals = "=";
  while (text.find("]" + equals + "]") != std::string::npos) equals += "=";
  return "[" + equals + "[" + text + "]" + equals + "]";
}

const char* value_kind_enumerator(ValueKind kind) {
  switch (kind) {
    case ValueKind::Boolean:
      return "Boolean";
    case ValueKind::Char:
      return "Char";
    case ValueKind::Octet:
      return "Octet";
    case ValueKind::Short:
      return "Short";
    case ValueKind::UShort:
      return "UShort";
    case ValueKind::Long:
      return "Long";
    case ValueKind::ULong:
      return "ULong";
    case ValueKind::LongLong:
      return "LongLong";
    case ValueKind::ULongLong:
      return "ULongLong";
    case ValueKind::Float:
      return "Float";
    case ValueKind::Double:
      return "Double";
    case ValueKind::String:
      return "String";
    case ValueKind::Enum:
      return "Enum";
  }
  return "String";
}

bool is_user(PortKind kind) { return kind != PortKind::Facet && kind != PortKind::EventConsumer; }

std::string property_text(const std::vector<Property>& properties, const char* name) {
  const Property* property = find_property(properties, name);
  return property == nullptr ? "" : property->value.text;
}

// Whether `text` is a C name ([A-Za-z_][A-Za-z0-9_]*), which a compiled plan links by.
bool is_c_name(const std::string& text) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (text.empty() || !letter(text.front())) return false;
  for (const char c : text) {
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

// The one process the program is: the plan's only locality, or (one_process)
// all of them, with the real-time settings of none.
Locality the_process(const PlanIndex& index, const CompileOptions& options) {
  const Plan& plan = index.plan();
  std::vector<Locality> localities = split_by_locality(plan);
  if (localities.size() == 1) return localities.front();
  if (!options.one_process) {
    std::vector<std::string> names;
    for (const auto& locality : localities) names.push_back(locality.name);
    throw std::runtime_error(plan.file + ": the plan has " + std::to_string(localities.size()) +
                             " processes (" + some_of(names) +
                             "); a compiled plan is one process: give --one-process to "
                             "assemble them all in it");
  }
  Locality merged{localities.front().node, "static", {}, nullptr};
  for (const Instance& instance : plan.instances) {
    if (!index.is_component_server(instance)) merged.components.push_back(&instance);
  }
  return merged;
}

std::string home_entrypoint(const PlanIndex& plan, const Instance& instance) {
  const Implementation& implementation = *plan.implementation(instance.implementation_id);
  const std::string entrypoint =
      property_text(implementation.exec_parameters, properties::kHomeEntrypoint);
  if (!is_c_name(entrypoint)) {
    throw std::runtime_error(implementation.where.to_string() + ": implementation '" +
                             implementation.name + "': home entry point " + literal(entrypoint) +
                             " is not a C name, which a compiled plan links by");
  }
  return entrypoint;
}

class TablesWriter {
 public:
  TablesWriter(const Plan& plan, const CompileOptions& options)
      : plan_(plan), index_(plan), process_(the_process(index_, options)) {}

  std::string write() {
    for (const Instance* instance : process_.components) add_home(*instance);
    out_ << "// Generated by mwccm-plan-compile from " << comment(plan_.file)
         << ": the plan's tables (docs/deployment.md section 5). Do not edit.\n"
         << "#include <mwccm/deployment/static_plan.hpp>\n\n";
    for (const auto& entrypoint : homes_)
      out_ << "extern \"C\" mwccm::HomeServant* " << entrypoint << "();\n";
    out_ << "\nnamespace {\n\nusing namespace mwccm::deployment::static_plan;\n"
         << "using mwccm::deployment::ValueKind;\n\n";
    write_homes();
    write_instances();
    write_connections();
    write_plan();
    out_ << "}  // namespace\n\n"
         << "int main(int argc, char** argv) { return run(argc, argv, kPlan); }\n";
    return out_.str();
  }

 private:
  void add_home(const Instance& instance) {
    const std::string entrypoint = home_entrypoint(index_, instance);
    if (home_index_.emplace(entrypoint, homes_.size()).second) homes_.push_back(entrypoint);
  }

  void write_homes() {
    out_ << "constexpr Home kHomes[] = {\n";
    for (const auto& entrypoint : homes_)
      out_ << "    {" << literal(entrypoint) << ", &" << entrypoint << "},\n";
    out_ << "};\n\n";
  }

  // Each instance's attribute values (and enum members) as arrays of their own.
  void write_values(std::size_t index, const Instance& instance) {
    std::ostringstream values;
    std::size_t count = 0;
    for (const auto& property : instance.config_properties) {
      if (!properties::sets_an_attribute(property.name)) continue;
      const TypedValue& value = property.value;
      std::string members = "{}";
      if (value.kind == ValueKind::Enum) {
        members = "kMembers" + std::to_string(index) + "_" + std::to_string(count);
        out_ << "constexpr const char* " << members << "[] = {";
        for (const auto& member : value.enum_members) out_ << literal(member) << ", ";
        out_ << "};\n";
      }
      values << "    {" << literal(property.name)
             << ", ValueKind::" << value_kind_enumerator(value.kind) << ", " << literal(value.text)
             << ", " << literal(value.enum_type_id) << ", " << members << "},\n";
      ++count;
    }
    if (count == 0) return;
    out_ << "constexpr Value kValues" << index << "[] = {\n" << values.str() << "};\n";
    with_values_.insert({index, "kValues" + std::to_string(index)});
  }

  void write_instances() {
    for (std::size_t i = 0; i < process_.components.size(); ++i)
      write_values(i, *process_.components[i]);
    out_ << "\nconstexpr Instance kInstances[] = {\n";
    for (std::size_t i = 0; i < process_.components.size(); ++i) {
      const Instance& instance = *process_.components[i];
      auto values = with_values_.find(i);
      out_ << "    {" << literal(instance.name) << ", "
           << home_index_.at(home_entrypoint(index_, instance)) << ", "
           << (values == with_values_.end() ? "{}" : values->second) << ", "
           << literal(property_text(instance.config_properties, properties::kInstanceIOR)) << ", "
           << literal(property_text(instance.config_properties, properties::kRegisterNaming))
           << "},\n";
    }
    out_ << "};\n\n";
  }

  void write_connections() {
    out_ << "constexpr Connection kConnections[] = {\n";
    for (const Connection& connection : plan_.connections) {
      const Endpoint* user = nullptr;
      const Endpoint* provider = nullptr;
      for (const auto& endpoint : connection.internal_endpoints)
        (is_user(endpoint.kind) ? user : provider) = &endpoint;
      const bool events =
          user->kind == PortKind::EventEmitter || user->kind == PortKind::EventPublisher;
      const ConnectionSettings settings = connection_settings(index_, connection);
      std::string provider_instance, provider_port, external;
      if (provider == nullptr) {
        provider_port = connection.external_references.front().port_name;
        external = connection.external_references.front().location;
      } else {
        provider_instance = index_.instance(provider->instance_id)->name;
        provider_port = provider->port_name;
      }
      out_ << "    {" << literal(connection.name) << ", "
           << literal(index_.instance(user->instance_id)->name) << ", " << literal(user->port_name)
           << ", " << literal(provider_instance) << ", " << literal(provider_port) << ", "
           << (events ? "true" : "false") << ", " << (settings.plain_cxx ? "true" : "false") << ", "
           << literal(external) << ", " << literal(settings.delivery) << ", "
           << literal(settings.gateway) << ", " << literal(settings.filter) << ", "
           << literal(settings.topic) << ", "
           << (settings.reliability == properties::kReliable ? "true" : "false") << ", "
           << (settings.history_depth.empty() ? "0" : settings.history_depth) << "},\n";
    }
    out_ << "};\n\n";
  }

  void write_plan() {
    const Instance* server = process_.server;
    const auto setting = [&](const char* name) {
      return server == nullptr ? std::string() : property_text(server->config_properties, name);
    };
    const std::string priority = setting(properties::kPriority);
    const std::string orb_threads = setting(properties::kOrbThreads);
    out_ << "constexpr Plan kPlan = {\n"
         << "    " << literal(plan_.label) << ",\n"
         << "    " << literal(plan_.file) << ",\n"
         << "    " << literal(process_.name) << ",\n"
         << "    " << literal(process_.node) << ",\n"
         << "    " << (priority.empty() ? "0" : priority) << ",\n"
         << "    " << literal(setting(properties::kCpuAffinity)) << ",\n"
         << "    " << (orb_threads.empty() ? "0" : orb_threads) << ",\n"
         << "    kHomes,\n    kInstances,\n    "
         << (plan_.connections.empty() ? "{}" : "kConnections") << ",\n};\n\n";
  }

  const Plan& plan_;
  const PlanIndex index_;
  const Locality process_;
  std::ostringstream out_;
  std::vector<std::string> homes_;
  std::map<std::string, std::size_t> home_index_;
  std::map<std::size_t, std::string> with_values_;
};

}  // namespace

std::string compile_tables(const Plan& plan, const CompileOptions& options) {
  return TablesWriter(plan, options).write();
}

std::string archive_name(const std::string& artifact_location) {
  const std::string file = artifact_location.substr(artifact_location.rfind('/') + 1);
  if (file.size() > 3 && file.compare(file.size() - 3, 3, ".so") == 0)
    return file.substr(0, file.size() - 3) + ".a";
  return file + ".a";
}

std::string compile_cmake_project(const Plan& plan, const CompileOptions& options) {
  const PlanIndex index(plan);
  const Locality process = the_process(index, options);
  std::vector<std::string> archives;  // in the order the plan first needs them
  std::set<std::string> listed;
  for (const Instance* instance : process.components) {
    const Implementation& implementation = *index.implementation(instance->implementation_id);
    for (const auto& id : implementation.artifact_ids) {
      const std::string archive = archive_name(index.artifact(id)->location);
      if (listed.insert(archive).second) archives.push_back(archive);
    }
  }
  std::string directories;
  for (const auto& directory : options.archive_directories)
    directories += (directories.empty() ? "" : ";") + directory;
  std::ostringstream out;
  out << "# Generated by mwccm-plan-compile from " << comment(plan.file) << ". Do not edit.\n"
      << "# " << options.program << ": the plan assembled in one process at start-up\n"
      << "# (docs/deployment.md section 5). Build it with\n"
      << "#   cmake -S DIR -B DIR/build [-DCMAKE_PREFIX_PATH=<where mwccm is installed>]\n"
      << "#   cmake --build DIR/build\n"
      << "cmake_minimum_required(VERSION 3.24)\n"
      << "project(" << options.program << " LANGUAGES CXX)\n"
      << "find_package(mwccm CONFIG REQUIRED)\n"
      << "set(MWCCM_ARTIFACT_DIRS " << cmake_literal(directories)
      << " CACHE STRING \"where the plan's component archives are\")\n"
      << "mwccm_static_plan_executable(" << options.program << " TABLES plan_tables.cpp ARCHIVES";
  for (const auto& archive : archives) out << ' ' << cmake_literal(archive);
  out << ")\n";
  return out.str();
}

}  // namespace mwccm::deployment
