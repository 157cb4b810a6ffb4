// Basic SP assembled in one process from its linked-in components: ticks
// reach the display through both pulls, the HUD logs one line per update,
// and wrong attribute values are refused at configuration_complete.
#include <gtest/gtest.h>
#include <unistd.h>

#include <BasicSP_ccm.hh>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mwccm/assembly.hpp>
#include <mwccm/component_server.hpp>
#include <sstream>
#include <thread>

#include "test_support.hpp"

namespace {

CORBA::Any string_value(const char* text) {
  CORBA::Any any;
  any <<= text;
  return any;
}

CORBA::Any ulong_value(CORBA::ULong value) {
  CORBA::Any any;
  any <<= value;
  return any;
}

class BasicSpInProcess : public ::testing::Test {
 protected:
  // The four components in one container, connected as the scenario says.
  void assemble(CORBA::ULong hertz, const std::string& log_file) {
    assembly_.add_server("here", mwccm_test::server().activate());
    assembly_.create_container("here", "basic_sp");
    for (const char* name : {"RateGen", "GPS", "Airframe", "HUD"}) {
      assembly_.install_home("basic_sp", name, std::string("mwccm_home_BasicSP_") + name + "Home",
                             "");
      assembly_.create_component(name, name);
    }
    assembly_.configure("RateGen", {{"hertz", ulong_value(hertz)}});
    assembly_.configure("HUD", {{"log_file", string_value(log_file.c_str())}});
    assembly_.subscribe({"RateGen", "tick"}, {"GPS", "tick"});
    assembly_.subscribe({"GPS", "ready"}, {"Airframe", "gps_ready"});
    assembly_.connect({"Airframe", "gps"}, {"GPS", "position"});
    assembly_.subscribe({"Airframe", "ready"}, {"HUD", "airframe_ready"});
    assembly_.connect({"HUD", "airframe"}, {"Airframe", "position"});
  }

  CORBA::ULongLong updates() {
    BasicSP::HUD_var hud = BasicSP::HUD::_narrow(assembly_.component("HUD"));
    return hud->updates();
  }

  std::string log_path_ =
      ::testing::TempDir() + "basic_sp_hud_" + std::to_string(getpid()) + ".log";
  mwccm::Assembly assembly_{mwccm_test::orb()};
};

TEST_F(BasicSpInProcess, TicksReachTheDisplayAndAreLogged) {
  std::remove(log_path_.c_str());
  assemble(500, log_path_);
  assembly_.activate();
  // Wait for what is observable: the HUD's count of updates (no fixed sleep).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (updates() < 20 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_GE(updates(), 20u);
  assembly_.remove();

  std::ifstream log(log_path_);
  std::string line;
  unsigned long long previous = 0, lines = 0;
  while (std::getline(log, line)) {
    std::istringstream fields(line);
    unsigned long long update = 0, latency = 0;
    ASSERT_TRUE(fields >> update >> latency) << line;
    EXPECT_EQ(update, previous + 1);  // one line per update, in order
    EXPECT_GT(latency, 0u);
    previous = update;
    ++lines;
  }
  EXPECT_GE(lines, 20u);
  std::remove(log_path_.c_str());
}

TEST_F(BasicSpInProcess, RefusesARateOfZeroAndAnUnwritableLog) {
  assemble(0, "");
  try {
    assembly_.activate();
    ADD_FAILURE() << "hertz 0 was accepted";
  } catch (const Components::InvalidConfiguration& e) {
    EXPECT_NE(std::string(e.message.in()).find("'hertz' is from 1 to 100000, not 0"),
              std::string::npos)
        << e.message.in();
  }
  assembly_.remove();
  mwccm::Assembly second(mwccm_test::orb());
  second.add_server("here", mwccm_test::server().activate());
  second.create_container("here", "unwritable");
  second.install_home("unwritable", "HUD", "mwccm_home_BasicSP_HUDHome", "");
  second.create_component("HUD", "HUD");
  second.configure("HUD", {{"log_file", string_value("/nonexistent-directory/hud.log")}});
  EXPECT_THROW(second.activate(), Components::InvalidConfiguration);
  second.remove();
}

}  // namespace
