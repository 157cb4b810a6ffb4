// The dynamic assembly path: this executable does not link the Probe
// component; install_home loads it from a shared library (MWCCM_PROBE_MODULE).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace mwccm_test {
namespace {

TEST(Dlopen, HomeFromSharedLibraryCreatesWorkingComponents) {
  auto& container = server().create_local_container(unique_name("dynamic"));
  Components::ConfigValues config;
  config.length(1);
  config[0].name = "library";
  config[0].value <<= MWCCM_PROBE_MODULE;
  Components::CCMHome_var home =
      container.install_home("NodeHome", "mwccm_home_Probe_NodeHome_dynamic", config);
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
