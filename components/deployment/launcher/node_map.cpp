// Reading a node map (node_map.hpp).
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/node_map.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <sstream>

namespace mwccm::deployment {

NodeMap read_node_map(const std::string& file) {
  std::istringstream in(read_input_file(file, kNodeMapFile));
  NodeMap nodes;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string name, reference, extra;
    if (!(fields >> name)) continue;
    if (!(fields >> reference) || (fields >> extra)) {
      throw PlanError({file, number},
                      "a node map line is NAME REFERENCE (IOR:, corbaloc:, corbaname:, file:)");
    }
    if (!nodes.emplace(name, std::make_pair(reference, number)).second) {
      throw PlanError({file, number}, "node " + quote(name) + " is named twice");
    }
  }
  return nodes;
}

NodeMap read_node_references(const std::string& file) {
  NodeMap map = read_node_map(file);
  for (auto& [name, entry] : map) {
    auto& [reference, line] = entry;
    if (reference.rfind("file:", 0) != 0) continue;
    try {
      reference = read_ior_file(reference);
    } catch (const mwccm::Error& e) {
      throw PlanError({file, line}, "node " + quote(name) + ": " + e.what());
    }
  }
  return map;
}

}  // namespace mwccm::deployment
