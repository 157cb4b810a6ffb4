// mwccm::Assembly in process, over the Probe component: the bookkeeping of
// names (the cross-process behaviour is two_servers_test.cpp's).
#include <gtest/gtest.h>

#include <cstdio>
#include <mwccm/assembly.hpp>
#include <mwccm/step_observer.hpp>

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

namespace mwccm_test {
namespace {

// Records each step as "begun|ended|failed <step> <subject>".
class StepRecorder final : public mwccm::StepObserver {
 public:
  void step_begun(mwccm::Step step, const std::string& subject) noexcept override {
    lines.push_back(std::string("begun ") + mwccm::step_name(step) + " " + subject);
  }
  void step_ended(mwccm::Step step, const std::string& subject, bool succeeded) noexcept override {
    lines.push_back(std::string(succeeded ? "ended " : "failed ") + mwccm::step_name(step) + " " +
                    subject);
  }
  std::vector<std::string> lines;
};

TEST(AssemblySteps, EveryStepIsReportedWithItsSubjectAndNesting) {
  Probe_glue::register_value_factories(orb());
  StepRecorder recorder;
  mwccm::set_step_observer(&recorder);
  const std::string container = unique_name("observed");
  const std::string home = unique_name("observed-home");
  const std::string ior = ::testing::TempDir() + unique_name("observed") + ".ior";
  {
    mwccm::Assembly assembly(orb());
    assembly.add_server("here", server().activate());
    assembly.create_container("here", container);
    assembly.install_home(container, home, "mwccm_home_Probe_NodeHome", "");
    assembly.create_component(home, "a");
    assembly.create_component(home, "b");
    assembly.connect({"b", "peer"}, {"a", "count"});
    assembly.activate();
    assembly.register_component("a", "file:" + ior);
    EXPECT_THROW(assembly.configure("a", {{"no_such_attribute", CORBA::Any()}}),
                 CORBA::UserException);
    assembly.remove();
  }
  mwccm::set_step_observer(nullptr);
  std::remove(ior.c_str());
  const std::vector<std::string> expected{
      "begun container_creation " + container,
      "ended container_creation " + container,
      "begun home_creation " + home,
      "ended home_creation " + home,
      "begun component_creation a",
      "ended component_creation a",
      "begun component_creation b",
      "ended component_creation b",
      "begun connection b.peer",
      "ended connection b.peer",
      "begun activation a",
      "ended activation a",
      "begun activation b",
      "ended activation b",
      "begun activation a",
      "ended activation a",
      "begun activation b",
      "ended activation b",
      "begun registration a",
      "begun registration_reference a",
      "ended registration_reference a",
      "begun registration_stringify file:" + ior,
      "ended registration_stringify file:" + ior,
      "begun registration_publish file:" + ior,
      "ended registration_publish file:" + ior,
      "ended registration a",
      "begun configuration a",
      "failed configuration a",
      "begun passivation b",
      "ended passivation b",
      "begun passivation a",
      "ended passivation a",
      "begun disconnection b.peer",
      "ended disconnection b.peer",
      "begun removal b",
      "ended removal b",
      "begun removal a",
      "ended removal a",
      "begun removal " + container,
      "ended removal " + container,
  };
  EXPECT_EQ(recorder.lines, expected);
}

}  // namespace
}  // namespace mwccm_test

namespace mwccm_test {
namespace {

// Two assemblies stand for two component servers: the ends one provides are
// connected by the other, and each undoes only its own connections.
TEST(AssemblyAcrossProcesses, ConnectsToWhatAnotherAssemblyProvides) {
  Probe_glue::register_value_factories(orb());
  mwccm::Assembly providing(orb()), using_(orb());
  for (auto* assembly : {&providing, &using_}) {
    const std::string container = unique_name("across");
    assembly->add_server("here", server().activate());
    assembly->create_container("here", container);
    assembly->install_home(container, container + "-home", "mwccm_home_Probe_NodeHome", "");
    assembly->create_component(container + "-home", "n");
  }
  CORBA::Object_var facet = providing.provide({"n", "count"});
  Components::EventConsumerBase_var sink = providing.consumer({"n", "echoes"});
  using_.connect_to({"n", "peer"}, facet.in(), {"far", "count"});
  using_.subscribe_to({"n", "ticks"}, sink.in(), {"far", "echoes"});
  EXPECT_THROW(using_.connect_to({"n", "peer"}, facet.in(), {"far", "count"}),
               Components::AlreadyConnected);
  EXPECT_THROW(providing.provide({"n", "no_such_port"}), Components::InvalidName);
  using_.activate();
  providing.activate();
  EXPECT_NO_THROW(using_.remove());
  EXPECT_NO_THROW(providing.remove());
}

}  // namespace
}  // namespace mwccm_test
