// What a running process occupies: its program and every file it has mapped
// (its shared libraries), as `size` counts them (text, data and bss, read
// from the ELF section headers) and as bytes on disk (which include debug
// information), and its peak resident memory (VmHWM), read from /proc.
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace deploy {

// A process to measure and what it is in the deployment ("program", "node",
// "component server").
struct HostProcess {
  pid_t pid;
  std::string role;
};

// {"role", "program", "files", "size_bytes", "disk_bytes", "peak_rss_kb"}.
nlohmann::json process_footprint(const HostProcess& process);
// The processes with their sums (a file mapped by several counts once).
nlohmann::json footprint_of(const std::vector<nlohmann::json>& processes);
// The children of `pid` (every thread's), from /proc.
std::vector<pid_t> children_of(pid_t pid);

}  // namespace deploy
