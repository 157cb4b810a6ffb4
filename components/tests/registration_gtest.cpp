// References in files and in a real omniNames (started on the loopback port
// test_support reserved, in a temporary folder, and stopped after the test).
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <csignal>
#include <filesystem>
#include <mwccm/registration.hpp>
#include <thread>

#include "test_support.hpp"

namespace mwccm_test {
namespace {

namespace fs = std::filesystem;

class OmniNames {
 public:
  OmniNames() : dir_(fs::temp_directory_path() / unique_name("mwccm-names-")) {
    fs::create_directories(dir_);
    std::vector<std::string> args = {"omniNames",
                                     "-start",
                                     std::to_string(naming_port()),
                                     "-datadir",
                                     dir_.string(),
                                     "-ignoreport",
                                     "-ORBendPoint",
                                     "giop:tcp:127.0.0.1:" + std::to_string(naming_port())};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "omniNames", nullptr, nullptr, argv.data(), environ) != 0) pid_ = 0;
  }
  ~OmniNames() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    fs::remove_all(dir_);
  }
  bool started() const { return pid_ > 0; }

 private:
  fs::path dir_;
  pid_t pid_ = 0;
};

Components::Deployment::Container_ptr some_reference() {
  return Components::Deployment::Container::_duplicate(
      server().create_local_container(unique_name("reg")).reference());
}

TEST(Registration, FileHoldsTheIor) {
  Components::Deployment::Container_var ref = some_reference();
  const auto path = (fs::temp_directory_path() / unique_name("mwccm-ior-")).string();
  mwccm::register_reference(orb(), ref.in(), "file:" + path);
  auto back = mwccm::resolve<Components::Deployment::Container>(orb(), path);
  EXPECT_TRUE(back->_is_equivalent(ref.in()));
  CORBA::release(back);
  mwccm::unregister_reference(orb(), path);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_THROW(mwccm::resolve_reference(orb(), path), mwccm::Error);
  server().remove_container(ref.in());
}

TEST(Registration, NamingServiceBindsAPathCreatingContexts) {
  OmniNames names;
  ASSERT_TRUE(names.started());
  Components::Deployment::Container_var ref = some_reference();
  // omniNames needs a moment to listen: retry the first bind briefly.
  bool bound = false;
  for (int i = 0; i < 100 && !bound; ++i) {
    try {
      mwccm::register_reference(orb(), ref.in(), "naming:Bench/Servers/c1");
      bound = true;
    } catch (const mwccm::Error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ASSERT_TRUE(bound);
  mwccm::register_reference(orb(), ref.in(), "naming:Bench/Servers/c1");  // rebind
  CORBA::Object_var back = mwccm::resolve_reference(orb(), "naming:Bench/Servers/c1");
  EXPECT_TRUE(back->_is_equivalent(ref.in()));
  mwccm::unregister_reference(orb(), "naming:Bench/Servers/c1");
  EXPECT_THROW(mwccm::resolve_reference(orb(), "naming:Bench/Servers/c1"), mwccm::Error);
  server().remove_container(ref.in());
}

}  // namespace
}  // namespace mwccm_test
