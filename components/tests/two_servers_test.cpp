// End to end, with real processes: two component servers, Relay components
// installed into each through the generic steps only (mwccm::Assembly), one
// facet/receptacle and one publisher/sink connection across the processes.
// Each test runs in both assembly modes from the same component source:
//   dynamic  the generic mwccm-component-server loads the Relay module (dlopen)
//   static   mwccm-relay-static-server has the Relay component linked in
// This program links the Relay stubs only to read the counts; it links no
// executor and no home.
#include <gtest/gtest.h>

#include <Relay_ccm.hh>
#include <filesystem>
#include <memory>
#include <mwccm/assembly.hpp>
#include <mwccm/registration.hpp>
#include <ostream>
#include <string>

#include "server_process.hpp"
#include "test_support.hpp"

namespace mwccm_test {
namespace {

struct Mode {
  const char* name;
  const char* server;   // the component server program
  const char* library;  // install_home's "library"; empty: linked into the server
};

void PrintTo(const Mode& mode, std::ostream* out) { *out << mode.name; }

const Mode dynamic_mode{"dynamic", MWCCM_COMPONENT_SERVER, MWCCM_RELAY_MODULE};
const Mode static_mode{"static", MWCCM_RELAY_STATIC_SERVER, ""};

// The message of the CCM exception E that `step` raises; fails the test if
// it raises nothing or something else.
template <class E, class F>
std::string refusal(F&& step) {
  try {
    step();
  } catch (const E& e) {
    return e.message.in();
  } catch (const CORBA::Exception& e) {
    ADD_FAILURE() << "raised " << e._name() << " instead";
    return {};
  }
  ADD_FAILURE() << "raised nothing";
  return {};
}

class TwoServers : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override {
    receiving_ = std::make_unique<ServerProcess>(GetParam().server, scratch_.path(), "receiving");
    sending_ = std::make_unique<ServerProcess>(GetParam().server, scratch_.path(), "sending");
    assembly_.add_server("receiving", receiving_->target());
    assembly_.add_server("sending", sending_->target());
    assembly_.create_container("receiving", "rx");
    assembly_.create_container("sending", "tx");
    assembly_.install_home("rx", "receiver-home", "mwccm_home_Relay_ReceiverHome",
                           GetParam().library);
    assembly_.install_home("tx", "sender-home", "mwccm_home_Relay_SenderHome", GetParam().library);
    assembly_.create_component("receiver-home", "receiver");
    assembly_.create_component("sender-home", "sender");
  }

  Relay::Counter_var facet_of(const std::string& component, const char* facet) {
    CORBA::Object_var ref = assembly_.component(component)->provide_facet(facet);
    return Relay::Counter::_narrow(ref.in());
  }

  ScratchDir scratch_;
  // Stopped by their destructors whatever the test did (ServerProcess).
  std::unique_ptr<ServerProcess> receiving_;
  std::unique_ptr<ServerProcess> sending_;
  mwccm::Assembly assembly_{orb()};
};

TEST_P(TwoServers, CallAndEventCrossTheProcesses) {
  CORBA::Any factor;
  factor <<= CORBA::ULong{3};
  assembly_.configure("sender", {{"factor", factor}});
  assembly_.connect({"sender", "target"}, {"receiver", "calls"});
  assembly_.subscribe({"sender", "pulses"}, {"receiver", "pulses"});
  assembly_.activate();
  const std::string registered = scratch_.path() + "/receiver.ior";
  assembly_.register_component("receiver", registered);

  Relay::Counter_var trigger = facet_of("sender", "trigger");
  EXPECT_EQ(trigger->add(2), 6u);  // 2 × factor 3 arrived at the receiver
  EXPECT_EQ(trigger->add(1), 9u);

  CORBA::Object_var gauge_ref = assembly_.component("receiver")->provide_facet("gauge");
  Relay::Gauge_var gauge = Relay::Gauge::_narrow(gauge_ref.in());
  EXPECT_EQ(gauge->calls(), 2u);
  EXPECT_EQ(gauge->pulses(), 2u);  // pushes are two-way calls: both arrived before add returned

  Components::CCMObject_var found =
      mwccm::resolve<Components::CCMObject>(orb(), "file:" + registered);
  EXPECT_TRUE(found->_is_equivalent(assembly_.component("receiver")));

  assembly_.remove();
  Components::Deployment::Containers_var left = assembly_.server("receiving")->get_containers();
  EXPECT_EQ(left->length(), 0u);
  assembly_.shutdown_servers();
  EXPECT_EQ(receiving_->wait_for_exit(), 0);
  EXPECT_EQ(sending_->wait_for_exit(), 0);
}

TEST_P(TwoServers, WrongUseComesBackAsCcmExceptionsNamingBothPorts) {
  std::string message = refusal<Components::InvalidName>([&] {
    assembly_.connect({"sender", "no_such_port"}, {"receiver", "calls"});
  });
  EXPECT_NE(message.find("'no_such_port'"), std::string::npos) << message;
  EXPECT_NE(message.find("'calls'"), std::string::npos) << message;

  message = refusal<Components::InvalidConnection>([&] {
    assembly_.connect({"sender", "target"}, {"receiver", "gauge"});
  });
  EXPECT_NE(message.find("'target'"), std::string::npos) << message;
  EXPECT_NE(message.find("'gauge'"), std::string::npos) << message;

  message = refusal<Components::InvalidName>([&] {
    assembly_.subscribe({"sender", "pulses"}, {"receiver", "no_such_sink"});
  });
  EXPECT_NE(message.find("'pulses'"), std::string::npos) << message;
  EXPECT_NE(message.find("'no_such_sink'"), std::string::npos) << message;

  assembly_.connect({"sender", "target"}, {"receiver", "calls"});
  assembly_.activate();
  message = refusal<Components::AlreadyConnected>([&] {
    assembly_.connect({"sender", "target"}, {"receiver", "calls"});
  });
  EXPECT_NE(message.find("'target'"), std::string::npos) << message;
  EXPECT_NE(message.find("'calls'"), std::string::npos) << message;

  // A second Sender left unconnected: a call that would go through its
  // receptacle is refused by its executor, with the facet and the receptacle.
  assembly_.create_component("sender-home", "idle-sender");
  assembly_.activate();
  Relay::Counter_var idle = facet_of("idle-sender", "trigger");
  message = refusal<Components::NoConnection>([&] { idle->add(1); });
  EXPECT_NE(message.find("'trigger'"), std::string::npos) << message;
  EXPECT_NE(message.find("'target'"), std::string::npos) << message;
  // The same receptacle used by name through the generic operation.
  message = refusal<Components::NoConnection>([&] {
    CORBA::Object_var former = assembly_.component("idle-sender")->disconnect("target", nullptr);
  });
  EXPECT_NE(message.find("'target'"), std::string::npos) << message;

  assembly_.remove();
  assembly_.shutdown_servers();
  EXPECT_EQ(receiving_->wait_for_exit(), 0);
  EXPECT_EQ(sending_->wait_for_exit(), 0);
}

TEST_P(TwoServers, ServerHostingComponentsExitsCleanlyOnSigterm) {
  assembly_.connect({"sender", "target"}, {"receiver", "calls"});
  assembly_.activate();
  EXPECT_EQ(receiving_->terminate(), 0);
  EXPECT_EQ(sending_->terminate(), 0);
}

INSTANTIATE_TEST_SUITE_P(AssemblyModes, TwoServers, ::testing::Values(dynamic_mode, static_mode),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace mwccm_test
