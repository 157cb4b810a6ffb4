// The locality engine in this process, over the Basic SP components linked
// in: a plan split into locality plans, assembled, wired across localities
// by their provided references, ticking end to end, timed step by step, and
// torn down (twice).
#include <gtest/gtest.h>
#include <unistd.h>

#include <BasicSP_ccm.hh>
#include <chrono>
#include <functional>
#include <map>
#include <mwccm/container.hpp>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/locality_assembly.hpp>
#include <mwccm/deployment/locality_plans.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/registration.hpp>
#include <set>
#include <thread>

#include "test_support.hpp"

namespace mwccm::deployment::testing {
namespace {

class LocalityAssemblyTest : public ::testing::Test {
 public:
  // The shared ORB and server (components/tests/test_support.hpp), serving.
  static void SetUpTestSuite() { mwccm_test::server().activate(); }

  // The plan's locality plans, the HUD's IOR in the test's directory.
  std::vector<MwccmDeployment::LocalityPlan> localities_of(const std::string& name) {
    Plan plan = read_plan(std::string(MWCCM_BASIC_SP_DIR) + "/plans/" + name + ".config");
    InterfaceCatalog interfaces;
    interfaces.add_directory(MWCCM_BASIC_SP_BUILD_DIR);
    complete_plan(plan, interfaces);
    check_plan(plan, interfaces);
    auto localities = make_locality_plans(mwccm_test::orb(), plan);
    for (auto& locality : localities) {
      for (CORBA::ULong i = 0; i < locality.instances.length(); ++i) {
        if (*locality.instances[i].ior_file.in() != '\0')
          locality.instances[i].ior_file = ior_.c_str();
      }
    }
    return localities;
  }

  // Runs the localities as a launcher would: every start_launch, then every
  // finish_launch with all the references, then waits for 10 displayed ticks.
  // `while_ticking` looks at the assembly before it is torn down.
  void deploy_and_tick(
      std::vector<MwccmDeployment::LocalityPlan> plans,
      const std::function<void()>& while_ticking = [] {}) {
    std::vector<std::unique_ptr<LocalityAssembly>> localities;
    MwccmDeployment::ProvidedReferences all;
    for (const auto& plan : plans) {
      localities.push_back(
          std::make_unique<LocalityAssembly>(mwccm_test::orb(), mwccm_test::server()));
      MwccmDeployment::ProvidedReferences_var provided = localities.back()->start_launch(plan);
      for (CORBA::ULong i = 0; i < provided->length(); ++i) {
        all.length(all.length() + 1);
        all[all.length() - 1] = provided[i];
      }
    }
    for (auto& locality : localities) locality->finish_launch(all, true);

    CORBA::Object_var object = mwccm::resolve_reference(mwccm_test::orb(), "file:" + ior_);
    BasicSP::HUD_var hud = BasicSP::HUD::_narrow(object.in());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (hud->updates() < 10 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_GE(hud->updates(), 10u);
    while_ticking();

    std::set<std::string> steps;
    for (auto& locality : localities) {
      MwccmDeployment::Timings_var timings = locality->timings();
      for (CORBA::ULong i = 0; i < timings->length(); ++i) {
        steps.insert(timings[i].step.in());
        EXPECT_LE(timings[i].begin_ns, timings[i].end_ns);
        EXPECT_EQ(std::string(timings[i].process.in()),
                  std::string(plans[&locality - &localities[0]].name.in()));
      }
    }
    for (const char* step :
         {"container_creation", "home_creation", "component_creation", "configuration",
          "registration", "registration_reference", "registration_stringify",
          "registration_publish", "connection", "activation"}) {
      EXPECT_EQ(steps.count(step), 1u) << step << " was not timed";
    }
    for (auto& locality : localities) locality->teardown();
    for (auto& locality : localities) EXPECT_NO_THROW(locality->teardown());  // twice
    EXPECT_NE(access(ior_.c_str(), F_OK), 0) << "the registration was not undone";
  }

  std::string ior_ = ::testing::TempDir() + "locality_hud_" + std::to_string(getpid()) + ".ior";
};

TEST_F(LocalityAssemblyTest, BasicSpInOneLocality) {
  auto plans = localities_of("one_process");
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].instances.length(), 4u);
  EXPECT_EQ(plans[0].connections.length(), 5u);
  EXPECT_EQ(plans[0].provided.length(), 0u);
  deploy_and_tick(plans);
}

TEST_F(LocalityAssemblyTest, BasicSpAcrossTwoLocalitiesWiredByReferences) {
  auto plans = localities_of("two_processes");
  ASSERT_EQ(plans.size(), 2u);
  // Each side provides what the other uses: the GPS's position (to the
  // airframe's receptacle), the airframe's consumer (to the GPS's events).
  auto provided = [](const MwccmDeployment::LocalityPlan& plan) {
    std::set<std::string> ends;
    for (CORBA::ULong i = 0; i < plan.provided.length(); ++i) {
      ends.insert(std::string(plan.provided[i].instance.in()) + "." + plan.provided[i].port.in());
    }
    return ends;
  };
  EXPECT_EQ(provided(plans[0]), std::set<std::string>{"gps.position"});
  EXPECT_EQ(provided(plans[1]), std::set<std::string>{"airframe.gps_ready"});
  deploy_and_tick(plans);
}

TEST_F(LocalityAssemblyTest, BasicSpConnectedAsPlainCxxTicksWithoutFacetOrSinkServants) {
  auto plans = localities_of("one_process_plain");
  ASSERT_EQ(plans.size(), 1u);
  for (CORBA::ULong i = 0; i < plans[0].connections.length(); ++i)
    EXPECT_TRUE(plans[0].connections[i].plain_cxx) << i;
  const std::string container = plans[0].name.in();
  deploy_and_tick(plans, [&] {
    mwccm::Container* here = mwccm_test::server().find_local_container(container);
    ASSERT_NE(here, nullptr);
    Components::Deployment::CCMObjects_var components = here->get_components();
    ASSERT_EQ(components->length(), 4u);
    for (CORBA::ULong i = 0; i < components->length(); ++i) {
      mwccm::ComponentServant* component = here->servant_of(components[i].in());
      ASSERT_NE(component, nullptr);
      for (const auto& port : component->ports().provided())
        EXPECT_FALSE(port->has_servant()) << component->key() << "." << port->name();
    }
  });
}

TEST_F(LocalityAssemblyTest, BasicSpThroughItsContainersChannelTicksEndToEnd) {
  auto plans = localities_of("one_process_channel");
  ASSERT_EQ(plans.size(), 1u);
  std::size_t channelled = 0;
  for (CORBA::ULong i = 0; i < plans[0].connections.length(); ++i) {
    if (std::string(plans[0].connections[i].delivery.in()) == "channel") ++channelled;
  }
  EXPECT_EQ(channelled, 3u);
  const std::string container = plans[0].name.in();
  deploy_and_tick(plans, [&] {
    const mwccm::EventChannel::Counters counters =
        mwccm_test::server().find_local_container(container)->channel().counters();
    // Every tick went through the channel: three pushes, three deliveries.
    EXPECT_GE(counters.published, 30u);
    EXPECT_EQ(counters.filtered, 0u);
    EXPECT_GE(counters.delivered, 30u);
  });
}

// Two localities whose channels are linked by gateways of `gateway` (the
// plan's UDP, or another the test sets), ticking end to end.
void expect_channels_linked(LocalityAssemblyTest& test,
                            std::vector<MwccmDeployment::LocalityPlan> plans, const char* gateway) {
  ASSERT_EQ(plans.size(), 2u);
  ASSERT_EQ(plans[1].inbound.length(), 1u);  // airframe.gps_ready, fed from the sensors
  EXPECT_STREQ(plans[1].inbound[0].supplier.instance.in(), "gps");
  plans[1].inbound[0].gateway = gateway;
  for (CORBA::ULong i = 0; i < plans[0].connections.length(); ++i)
    plans[0].connections[i].gateway = gateway;
  test.deploy_and_tick(plans);
}

TEST_F(LocalityAssemblyTest, BasicSpAcrossTwoLocalitiesThroughChannelsOverUdp) {
  expect_channels_linked(*this, localities_of("two_processes_channel"), "udp");
}

TEST_F(LocalityAssemblyTest, BasicSpAcrossTwoLocalitiesThroughChannelsOverIiop) {
  expect_channels_linked(*this, localities_of("two_processes_channel"), "iiop");
}

TEST_F(LocalityAssemblyTest, AFailureNamesThePhaseAndTheInstance) {
  auto plans = localities_of("one_process");
  plans[0].instances[1].home_entrypoint = "mwccm_home_BasicSP_CompassHome";
  LocalityAssembly locality(mwccm_test::orb(), mwccm_test::server());
  try {
    MwccmDeployment::ProvidedReferences_var provided = locality.start_launch(plans[0]);
    ADD_FAILURE() << "an unknown home was installed";
  } catch (const MwccmDeployment::DeploymentFailure& failure) {
    EXPECT_STREQ(failure.phase.in(), "start_launch");
    EXPECT_STREQ(failure.subject.in(), "gps");
    EXPECT_NE(std::string(failure.message.in()).find("mwccm_home_BasicSP_CompassHome"),
              std::string::npos)
        << failure.message.in();
  }
  locality.teardown();  // removes the container and what was made in it
  EXPECT_NO_THROW(locality.teardown());
}

}  // namespace
}  // namespace mwccm::deployment::testing
