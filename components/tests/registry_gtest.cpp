// Homes by entry point: the static registry (the Probe home is linked into
// this test) and the errors of the dlopen path.
#include <mwccm/home_registry.hpp>

#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

Components::ConfigValues library(const char* path) {
  Components::ConfigValues config;
  config.length(1);
  config[0].name = "library";
  config[0].value <<= path;
  return config;
}

TEST(HomeRegistry, LinkedHomeIsInTheStaticRegistry) {
  EXPECT_NE(mwccm::HomeRegistry::find("mwccm_home_Probe_NodeHome"), nullptr);
  EXPECT_EQ(mwccm::HomeRegistry::find("absent"), nullptr);
}

TEST(HomeRegistry, StaticHomeInstallsWithoutLibrary) {
  auto& container = server().create_local_container(unique_name("registry"));
  Components::CCMHome_var home =
      container.install_home("h", "mwccm_home_Probe_NodeHome", Components::ConfigValues());
  EXPECT_TRUE(home->_is_a("IDL:Probe/NodeHome:1.0"));
  EXPECT_THROW(container.install_home("h", "mwccm_home_Probe_NodeHome", Components::ConfigValues()),
               Components::Deployment::InstallationFailure);  // the id is taken
  Components::CCMHome_var found = container.find_home("h");
  EXPECT_TRUE(found->_is_equivalent(home.in()));
  container.remove_home(home.in());
  EXPECT_THROW(container.find_home("h"), Components::InvalidName);
  server().remove_container(container.reference());
}

TEST(HomeRegistry, UnknownEntryPointAndMissingLibraryAreNamed) {
  auto& container = server().create_local_container(unique_name("registry"));
  try {
    container.install_home("h", "no_such_entry", Components::ConfigValues());
    FAIL();
  } catch (const Components::Deployment::ImplEntryPointNotFound& e) {
    EXPECT_NE(std::string(e.message.in()).find("no_such_entry"), std::string::npos);
  }
  try {
    container.install_home("h", "no_such_entry", library("/nonexistent/libnothing.so"));
    FAIL();
  } catch (const Components::Deployment::InstallationFailure& e) {
    const std::string m = e.message.in();
    EXPECT_NE(m.find("/nonexistent/libnothing.so"), std::string::npos) << m;
    EXPECT_NE(m.find("no_such_entry"), std::string::npos) << m;
    EXPECT_NE(m.find("No such file"), std::string::npos) << m;  // dlerror()
  }
  server().remove_container(container.reference());
}

}  // namespace
}  // namespace mwccm_test
