// The plan compiler (static deployment, docs/deployment.md section 5): a
// checked plan as C++ tables (static_plan.hpp) and the CMake project that
// builds them into one program assembling the plan in one process.
//
// Tables rather than generated calls, as CIAO's Static_Configurator: the
// generated file is constant data, so it compiles in time linear in the
// plan's size with no optimiser work (a 1,000-component plan as calls is
// one function of thousands of statements), and the code that walks it is
// the dynamic path's, written and tested once. docs/deployment.md section 5
// gives the measurement.
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct CompileOptions {
  std::string program;  // the executable's name, a CMake target name
  // A plan of several processes (localityConstraints, nodes) assembled in
  // this one all the same; without it such a plan is refused.
  bool one_process = false;
  // Where the component archives (the artifact's location with .a for .so)
  // are found when the project is configured; its MWCCM_ARTIFACT_DIRS.
  std::vector<std::string> archive_directories;
};

// The program's one source: the tables and main(). The plan must have passed
// check_plan (after complete_plan). std::runtime_error for a plan of several
// processes without one_process, or an entry point that is not a C name.
std::string compile_tables(const Plan& plan, const CompileOptions& options);

// CMakeLists.txt of a project building `options.program` from plan_tables.cpp.
std::string compile_cmake_project(const Plan& plan, const CompileOptions& options);

// The static archive linked in for an artifact's location:
// "libbasic_sp_module.so" → "libbasic_sp_module.a".
std::string archive_name(const std::string& artifact_location);

}  // namespace mwccm::deployment
