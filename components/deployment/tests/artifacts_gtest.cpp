// Artifacts on a node: only inside the trusted directories, whatever the
// path says ("..", absolute, symbolic links), and entry points read from the
// ELF symbol table without loading the library.
#include <unistd.h>

#include <filesystem>
#include <mwccm/deployment/artifacts.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {
namespace fs = std::filesystem;

class Artifacts : public ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    trusted_ = scratch_ + "/trusted";
    fs::create_directory(trusted_);
    fs::copy_file(MWCCM_TEST_MODULE, trusted_ + "/libprobe.so");
  }
  std::string resolve_error(const TrustedDirectories& trusted, const std::string& location) {
    try {
      trusted.resolve(location);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "resolved";
  }
  std::string trusted_;
};

TEST_F(Artifacts, ResolvesInsideTheTrustedDirectories) {
  const TrustedDirectories trusted({trusted_});
  const std::string path = fs::canonical(trusted_ + "/libprobe.so").string();
  EXPECT_EQ(trusted.resolve("libprobe.so"), path);
  EXPECT_EQ(trusted.resolve(path), path);
  EXPECT_EQ(trusted.resolve("./libprobe.so"), path);
}

TEST_F(Artifacts, RefusesPathsThatLeaveThem) {
  const TrustedDirectories trusted({trusted_});
  write("outside.so", "not a library");
  EXPECT_NE(
      resolve_error(trusted, "../outside.so").find("outside the trusted artifact directories"),
      std::string::npos);
  EXPECT_NE(resolve_error(trusted, scratch_ + "/outside.so").find("outside the trusted"),
            std::string::npos);
  fs::create_symlink(scratch_ + "/outside.so", trusted_ + "/link.so");
  EXPECT_NE(resolve_error(trusted, "link.so").find("outside the trusted"), std::string::npos);
  EXPECT_NE(resolve_error(trusted, "absent.so")
                .find("not found (looked for " + fs::canonical(trusted_).string() + "/absent.so)"),
            std::string::npos);
  EXPECT_NE(
      resolve_error(TrustedDirectories({}), "libprobe.so").find("trusts no artifact directory"),
      std::string::npos);
  EXPECT_THROW(TrustedDirectories({scratch_ + "/missing"}), std::runtime_error);
}

TEST_F(Artifacts, ReadsEntryPointsWithoutLoading) {
  EXPECT_TRUE(library_exports(trusted_ + "/libprobe.so", "mwccm_home_Probe_NodeHome_dynamic"));
  EXPECT_FALSE(library_exports(trusted_ + "/libprobe.so", "mwccm_home_Probe_Missing"));
  EXPECT_THROW(library_exports(write("text.so", "not a library"), "x"), std::runtime_error);
}

TEST_F(Artifacts, TheCheckFindsTheArtifactAndItsEntryPoint) {
  const std::string plan_file =
      write("probe.config",
            "nl.remedy.it.CCM.Component probe libprobe.so mwccm_home_Probe_NodeHome_dynamic\n"
            "  nl.remedy.it.DnCX11.Node \"n\"\n");
  const InterfaceCatalog interfaces = test_interfaces();
  const TrustedDirectories trusted({trusted_});
  Plan plan = read_config(plan_file);
  check_plan(plan, interfaces, {&trusted, nullptr});

  plan.artifacts[0].location = "libabsent.so";
  const auto check = [&] { check_plan(plan, interfaces, {&trusted, nullptr}); };
  EXPECT_NE(only_problem(check).message.find("artifact 'libabsent.so' not found"),
            std::string::npos);
  plan.artifacts[0].location = "libprobe.so";
  plan.implementations[0].exec_parameters[0].value.text =
      "mwccm_home_Test_TunerHome";  // not in libprobe.so
  EXPECT_NE(only_problem(check).message.find("has no entry point 'mwccm_home_Test_TunerHome'"),
            std::string::npos);
  fs::copy_file(write("other.so", ""), trusted_ + "/libempty.so");
  plan.artifacts[0].location = "libempty.so";
  EXPECT_THROW(check_plan(plan, interfaces, {&trusted, nullptr}), PlanError);
}

}  // namespace
}  // namespace mwccm::deployment::testing
