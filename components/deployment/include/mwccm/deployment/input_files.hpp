// The files the deployment tools read, and the most each may hold
// (docs/deployment.md section 3). Each is read as mwccm/user_input.hpp reads
// input: a regular file (a FIFO is refused, never opened), within its bound,
// UTF-8 text. A refusal is a PlanError naming the file and line, so that
// every tool reports it as a problem of its input (exit status 2).
#pragma once

#include <cstddef>
#include <mwccm/user_input.hpp>
#include <string>

namespace mwccm::deployment {

// A plan, .cdp or .config: the bound libxml2's defaults were chosen for.
inline constexpr FileKind kPlanFile{"a plan", std::size_t{64} << 20};
// Everything else is small: a component's ports and attributes; a line per
// node; a reference per node.
inline constexpr FileKind kInterfaceFile{"a component interface description", std::size_t{1} << 20};
inline constexpr FileKind kNodeMapFile{"a node map", std::size_t{1} << 20};
inline constexpr FileKind kStateFile{"a deployment's state file", std::size_t{1} << 20};

// The text of `file`; PlanError (file:line: why) when it is refused.
std::string read_input_file(const std::string& file, const FileKind& kind);

}  // namespace mwccm::deployment
