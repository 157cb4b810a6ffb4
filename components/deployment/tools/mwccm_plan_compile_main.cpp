// mwccm-plan-compile: a deployment plan as a program (docs/deployment.md
// section 5).
//
//   mwccm-plan-compile PLAN -o DIR [--name PROGRAM] [--one-process]
//                      [--interfaces DIR]... [--artifacts DIR]... [--tables-only]
//
// Reads and checks PLAN (.cdp or .config) against the component interfaces
// (.ccd, looked for in --interfaces and --artifacts), then writes
// DIR/plan_tables.cpp (the plan as constant tables, and main()) and
// DIR/CMakeLists.txt, a project that builds PROGRAM with
//   cmake -S DIR -B DIR/build && cmake --build DIR/build
// linking the components' static archives found in the --artifacts
// directories (the artifact's name with .a for .so). Exit status: 0; 2 with
// every problem of the plan on standard error, one per line.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_compiler.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <regex>

namespace {

namespace fs = std::filesystem;
using namespace mwccm::deployment;

void write_file(const fs::path& file, const std::string& text) {
  const fs::path temporary = file.string() + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + temporary.string() + "'");
  fs::rename(temporary, file);
}

// The program's name by default: the plan file's stem, as a CMake target name.
std::string default_program(const std::string& plan_file) {
  std::string name = fs::path(plan_file).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name.empty() ? "plan" : name;
}

}  // namespace

int main(int argc, char** argv) {
  std::string plan_file, output;
  std::vector<std::string> interface_dirs, artifact_dirs;
  CompileOptions options;
  bool tables_only = false;
  CLI::App app{"mwccm-plan-compile: a deployment plan as C++ tables and a CMake project"};
  app.add_option("plan", plan_file, "the plan (.cdp or .config)")->required();
  app.add_option("-o,--output", output, "the directory to write")->required();
  app.add_option("--name", options.program, "the program's name (default: the plan's stem)");
  app.add_flag("--one-process", options.one_process,
               "assemble a plan of several processes in this one");
  app.add_option("--interfaces", interface_dirs, "a directory of .ccd files");
  app.add_option("--artifacts", artifact_dirs, "where the components' .ccd and static archives are")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--tables-only", tables_only, "write plan_tables.cpp only (mwccm_static_plan)");
  CLI11_PARSE(app, argc, argv);
  if (options.program.empty()) options.program = default_program(plan_file);
  if (!std::regex_match(options.program, std::regex("[A-Za-z_][A-Za-z0-9_.-]*"))) {
    std::cerr << "mwccm-plan-compile: --name '" << options.program
              << "' is not a program name (letters, digits, _ . -)\n";
    return 2;
  }
  for (const auto& directory : artifact_dirs)
    options.archive_directories.push_back(fs::canonical(directory).string());

  return run_or_refuse("mwccm-plan-compile", [&] {
    Plan plan = read_plan(plan_file);
    InterfaceCatalog catalog;
    for (const auto& directory : interface_dirs) catalog.add_directory(directory);
    for (const auto& directory : artifact_dirs) catalog.add_directory(directory);
    complete_plan(plan, catalog);
    check_plan(plan, catalog);
    const std::string tables = compile_tables(plan, options);
    const std::string project = tables_only ? "" : compile_cmake_project(plan, options);
    fs::create_directories(output);
    write_file(fs::path(output) / "plan_tables.cpp", tables);
    if (!tables_only) write_file(fs::path(output) / "CMakeLists.txt", project);
    return 0;
  });
}
