// Small accessors of DriverOptions.
#include "mwbench/options.hpp"

#include "mwbench/name_table.hpp"

namespace mwbench {

const char* to_string(Role role) noexcept {
  constexpr NameTable<Role, 3> kRoles{
      {{{Role::server, "server"}, {Role::client, "client"}, {Role::collocated, "collocated"}}}};
  return kRoles.name(role);
}

std::string DriverOptions::option(const std::string& key, const std::string& fallback) const {
  const auto it = options.find(key);
  return it == options.end() ? fallback : it->second;
}

bool DriverOptions::option_flag(const std::string& key, bool fallback) const {
  const auto it = options.find(key);
  if (it == options.end()) return fallback;
  if (it->second == "1") return true;
  if (it->second == "0") return false;
  throw UsageError("--option " + key + "=" + it->second + ": must be 0 or 1");
}

std::string DriverOptions::out_of_memory(const std::string& what) const {
  std::string text = what + ": out of memory";
  if (memory_limit_mb) text += " (--memory-limit-mb " + std::to_string(*memory_limit_mb) + ")";
  return text;
}

}  // namespace mwbench
