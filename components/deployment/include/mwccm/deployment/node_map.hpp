// A node map (DAnCE's): "NAME REFERENCE" per line, references IOR:,
// corbaloc:, corbaname: or file:, '#' comments; what mwccm-deploy --nodes
// and the deploy driver's option read.
#pragma once

#include <map>
#include <string>
#include <utility>

namespace mwccm::deployment {

// Each name with its reference and the line it is on.
using NodeMap = std::map<std::string, std::pair<std::string, int>>;

// PlanError naming the file and line when it cannot be read (input_files.hpp:
// at most 1 MiB of UTF-8 text) or is malformed.
NodeMap read_node_map(const std::string& file);

// The same, each `file:` reference (file:PATH, file:///PATH) replaced by the
// IOR its file holds, read now (mwccm::read_ior_file: bounded, never
// blocking): a file that holds no IOR is a PlanError at its line, said before
// anything starts rather than by a lookup later.
NodeMap read_node_references(const std::string& file);

}  // namespace mwccm::deployment
