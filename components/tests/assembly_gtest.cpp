// mwccm::Assembly in process, over the Probe component: the bookkeeping of
// names (the cross-process behaviour is two_servers_test.cpp's).
#include <gtest/gtest.h>

#include <mwccm/assembly.hpp>

#include "probe/probe_executor.hpp"
#include "test_support.hpp"

namespace mwccm_test {
namespace {

class AssemblyInProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    Probe_glue::register_value_factories(orb());
    assembly_.add_server("here", server().activate());
    assembly_.create_container("here", container_);
    assembly_.install_home(container_, home_, "mwccm_home_Probe_NodeHome", "");
  }
  void TearDown() override { assembly_.remove(); }

  const std::string container_ = unique_name("assembly");
  const std::string home_ = unique_name("node-home");
  mwccm::Assembly assembly_{orb()};
};

TEST_F(AssemblyInProcess, UnknownNamesAreInvalidName) {
  EXPECT_THROW(assembly_.create_component("no-such-home", "n"), Components::InvalidName);
  EXPECT_THROW(assembly_.component("no-such-component"), Components::InvalidName);
  EXPECT_THROW(assembly_.create_container("no-such-server", "c"), Components::InvalidName);
  assembly_.create_component(home_, "a");
  EXPECT_THROW(assembly_.create_component(home_, "a"), Components::InvalidName);
}

TEST_F(AssemblyInProcess, ActivateTakesOnlyWhatIsNew) {
  assembly_.create_component(home_, "a");
  assembly_.activate();
  assembly_.create_component(home_, "b");
  assembly_.connect({"b", "peer"}, {"a", "count"});
  assembly_.subscribe({"a", "ticks"}, {"b", "echoes"});
  EXPECT_NO_THROW(assembly_.activate());  // b only: configuring a again is IllegalState
}

}  // namespace
}  // namespace mwccm_test
