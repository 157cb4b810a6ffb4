// Splitting a plan into component server processes (localities.hpp).
#include <map>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <numeric>
#include <set>

namespace mwccm::deployment {
namespace {

// Disjoint sets of instance indices joined by SameProcess constraints.
class ProcessGroups {
 public:
  explicit ProcessGroups(std::size_t size) : parent_(size) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[root(a)] = root(b); }

 private:
  std::vector<std::size_t> parent_;
};

}  // namespace

std::vector<Locality> split_by_locality(const Plan& plan) {
  const PlanIndex index(plan);
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < plan.instances.size(); ++i) index_of.emplace(plan.instances[i].id, i);
  std::vector<PlanProblem> problems;

  // Join SameProcess instances; note who a constraint names.
  ProcessGroups groups(plan.instances.size());
  std::set<std::size_t> constrained_same, constrained_different;
  for (const auto& constraint : plan.locality_constraints) {
    if (constraint.kind == LocalityKind::NoConstraint) continue;
    std::vector<std::size_t> members;
    for (const auto& id : constraint.instance_ids) {
      auto found = index_of.find(id);
      if (found != index_of.end()) members.push_back(found->second);  // unknown ids: plan_check
    }
    for (std::size_t member : members) {
      (constraint.kind == LocalityKind::SameProcess ? constrained_same : constrained_different)
          .insert(member);
    }
    if (constraint.kind != LocalityKind::SameProcess) continue;
    for (std::size_t member : members) {
      const Instance& first = plan.instances[members.front()];
      const Instance& other = plan.instances[member];
      if (other.node != first.node) {
        problems.push_back({constraint.where, "localityConstraint SameProcess joins " +
                                                  quote(first.name) + " on node " +
                                                  quote(first.node) + " and " + quote(other.name) +
                                                  " on node " + quote(other.node)});
      }
      groups.join(members.front(), member);
    }
  }

  // A process key per instance: its group, its own, or its node's default.
  std::map<std::string, std::size_t> process_of_key;
  std::vector<Locality> localities;
  std::vector<std::size_t> process_of(plan.instances.size());
  for (std::size_t i = 0; i < plan.instances.size(); ++i) {
    const Instance& instance = plan.instances[i];
    std::string key;
    if (constrained_same.count(i) != 0) {
      key = "group:" + std::to_string(groups.root(i));
    } else if (constrained_different.count(i) != 0) {
      key = "own:" + std::to_string(i);
    } else {
      key = "default:" + instance.node;
    }
    auto [entry, added] = process_of_key.emplace(key, localities.size());
    if (added) localities.push_back({instance.node, {}, {}, nullptr});
    process_of[i] = entry->second;
    Locality& locality = localities[entry->second];
    if (!index.is_component_server(instance)) {
      locality.components.push_back(&instance);
    } else if (locality.server != nullptr) {
      problems.push_back({instance.where, "component server instances " +
                                              quote(locality.server->name) + " and " +
                                              quote(instance.name) + " configure one process"});
    } else {
      locality.server = &instance;
    }
  }

  for (const auto& constraint : plan.locality_constraints) {
    if (constraint.kind != LocalityKind::DifferentProcess) continue;
    std::map<std::size_t, const Instance*> seen;
    for (const auto& id : constraint.instance_ids) {
      auto found = index_of.find(id);
      if (found == index_of.end()) continue;
      const Instance& instance = plan.instances[found->second];
      auto [entry, added] = seen.emplace(process_of[found->second], &instance);
      if (!added) {
        problems.push_back({constraint.where, "localityConstraint DifferentProcess separates " +
                                                  quote(entry->second->name) + " and " +
                                                  quote(instance.name) +
                                                  ", which a SameProcess constraint joins"});
      }
    }
  }

  for (auto& locality : localities) {
    if (locality.components.empty() && locality.server != nullptr) {
      problems.push_back({locality.server->where, "component server instance " +
                                                      quote(locality.server->name) +
                                                      " shares a process with no component"});
    }
    if (locality.server != nullptr) {
      locality.name = locality.server->name;
    } else if (!locality.components.empty()) {
      locality.name = locality.node + "." + locality.components.front()->name;
    }
  }
  if (!problems.empty()) throw PlanError(std::move(problems));
  return localities;
}

}  // namespace mwccm::deployment
