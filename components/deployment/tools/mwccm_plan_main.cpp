// mwccm-plan: check a deployment plan, or convert it between the two formats.
//
//   mwccm-plan check PLAN [--interfaces DIR]... [--artifacts DIR]...
//   mwccm-plan convert PLAN -o OUT [--interfaces DIR]...
//
// The format is the file's suffix: .cdp (D&C XML) or .config (DnCX11).
// --interfaces names where component interface descriptions (.ccd) are;
// --artifacts names the directories artifacts may come from, and makes the
// check find each artifact and its home entry point there as a node would.
// Exit status: 0 valid or converted, 2 with every problem of the plan on
// standard error, one per line (file:line: what is wrong).
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <optional>
#include <stdexcept>

namespace {

using namespace mwccm::deployment;

InterfaceCatalog catalog_of(const std::vector<std::string>& directories) {
  InterfaceCatalog catalog;
  for (const auto& directory : directories) catalog.add_directory(directory);
  return catalog;
}

int check(const std::string& file, const std::vector<std::string>& interface_dirs,
          const std::vector<std::string>& artifact_dirs) {
  Plan plan = read_plan(file);
  // Interfaces are looked for beside the artifacts too, where the build puts them.
  std::vector<std::string> directories = interface_dirs;
  directories.insert(directories.end(), artifact_dirs.begin(), artifact_dirs.end());
  const InterfaceCatalog catalog = catalog_of(directories);
  complete_plan(plan, catalog);
  std::optional<TrustedDirectories> trusted;
  if (!artifact_dirs.empty()) trusted.emplace(artifact_dirs);
  check_plan(plan, catalog, {trusted ? &*trusted : nullptr, nullptr});
  std::cout << file << ": " << plan.instances.size() << " instances, " << plan.connections.size()
            << " connections: valid\n";
  return 0;
}

int convert(const std::string& file, const std::string& output,
            const std::vector<std::string>& interface_dirs) {
  Plan plan = read_plan(file);
  complete_plan(plan, catalog_of(interface_dirs));
  for (const auto& connection : plan.connections) {
    for (const auto& endpoint : connection.internal_endpoints) {
      if (endpoint.kind_implied) {
        throw PlanError(endpoint.where, "the kind of port '" + endpoint.port_name +
                                            "' comes from its component's interface: give "
                                            "--interfaces DIR with its .ccd file");
      }
    }
  }
  const bool to_config = output.size() >= 7 && output.substr(output.size() - 7) == ".config";
  const std::string text = to_config ? write_config(plan) : write_cdp(plan);
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + output + "'");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mwccm-plan: check a deployment plan, or convert it between .cdp and .config"};
  app.require_subcommand(1);
  std::string plan_file, output;
  std::vector<std::string> interface_dirs, artifact_dirs;

  CLI::App* check_command = app.add_subcommand("check", "check a plan completely");
  check_command->add_option("plan", plan_file, "the plan (.cdp or .config)")->required();
  check_command->add_option("--interfaces", interface_dirs, "a directory of .ccd files");
  check_command->add_option("--artifacts", artifact_dirs, "a directory artifacts may come from");

  CLI::App* convert_command = app.add_subcommand("convert", "write the plan in the other format");
  convert_command->add_option("plan", plan_file, "the plan (.cdp or .config)")->required();
  convert_command->add_option("-o,--output", output, "the plan to write (.cdp or .config)")
      ->required();
  convert_command->add_option("--interfaces", interface_dirs, "a directory of .ccd files");
  CLI11_PARSE(app, argc, argv);

  return run_or_refuse("mwccm-plan", [&] {
    if (check_command->parsed()) return check(plan_file, interface_dirs, artifact_dirs);
    return convert(plan_file, output, interface_dirs);
  });
}
