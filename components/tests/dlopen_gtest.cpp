// The dynamic assembly path: this executable does not link the Probe
// component; install_home loads it from a shared library (MWCCM_PROBE_MODULE).
#include <gtest/gtest.h>

#include <mwccm/step_observer.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace mwccm_test {
namespace {

// Reports which steps began, in order.
class BegunSteps final : public mwccm::StepObserver {
 public:
  void step_begun(mwccm::Step step, const std::string& subject) noexcept override {
    begun.push_back(std::string(mwccm::step_name(step)) + " " + subject);
  }
  void step_ended(mwccm::Step, const std::string&, bool) noexcept override {}
  std::vector<std::string> begun;
};

// The first load of the library in this process: later installs of its homes
// find them registered (the library's registrars ran when it was loaded).
TEST(Dlopen, HomeFromSharedLibraryCreatesWorkingComponents) {
  auto& container = server().create_local_container(unique_name("dynamic"));
  Components::ConfigValues config;
  config.length(1);
  config[0].name = "library";
  config[0].value <<= MWCCM_PROBE_MODULE;
  BegunSteps steps;
  mwccm::set_step_observer(&steps);
  Components::CCMHome_var home =
      container.install_home("NodeHome", "mwccm_home_Probe_NodeHome_dynamic", config);
  mwccm::set_step_observer(nullptr);
  EXPECT_EQ(steps.begun,
            std::vector<std::string>{std::string("library_load ") + MWCCM_PROBE_MODULE});
  Components::KeylessCCMHome_var keyless = Components::KeylessCCMHome::_narrow(home.in());
  Components::CCMObject_var node = keyless->create_named_component("n");
  CORBA::Object_var facet = node->provide_facet("count");
  EXPECT_TRUE(facet->_is_a("IDL:Probe/Counter:1.0"));
  node->configuration_complete();
  container.activate_component(node.in());
  EXPECT_THROW(container.install_home("x", "absent_entry", config),
               Components::Deployment::ImplEntryPointNotFound);
  server().remove_container(container.reference());
}

}  // namespace
}  // namespace mwccm_test
