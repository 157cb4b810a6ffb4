// The lifecycle the container drives, each step and each refusal, and
// configuration by attribute name.
#include <future>
#include <thread>

#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using Lifecycle = ProbeFixture;
using Steps = std::vector<std::string>;

Components::ConfigValues rate(CORBA::ULong value, const char* name = "rate") {
  Components::ConfigValues config;
  config.length(1);
  config[0].name = name;
  config[0].value <<= value;
  return config;
}

TEST_F(Lifecycle, CreateSetsTheSessionContext) {
  ProbeNode a = create("a");
  EXPECT_EQ(a.exec->steps(), Steps{"set_session_context"});
  EXPECT_EQ(a.servant->state(), mwccm::LifecycleState::context_set);
  CORBA::Object_var self = a.exec->context()->get_CCM_object();
  EXPECT_TRUE(self->_is_equivalent(a.ref.in()));
  Components::CCMHome_var home = a.ref->get_ccm_home();
  EXPECT_TRUE(home->_is_equivalent(home_.in()));
}

TEST_F(Lifecycle, ConfigurationSetsAttributesByName) {
  ProbeNode a = create("a");
  a.ref->set_configuration(rate(42));
  EXPECT_EQ(a.ref->rate(), 42u);
  EXPECT_THROW(a.ref->set_configuration(rate(1, "nope")), Components::InvalidConfiguration);
  Components::ConfigValues wrong;
  wrong.length(1);
  wrong[0].name = "rate";
  wrong[0].value <<= "fast";
  EXPECT_THROW(a.ref->set_configuration(wrong), Components::InvalidConfiguration);
}

TEST_F(Lifecycle, FullLifecycleInOrder) {
  ProbeNode a = create("a");
  a.ref->configuration_complete();
  container_->activate_component(a.ref.in());
  container_->passivate_component(a.ref.in());
  container_->activate_component(a.ref.in());
  a.exec->_add_ref();  // keep the executor to read it after removal
  probe::NodeExec* exec = a.exec;
  a.ref->remove();
  EXPECT_EQ(exec->steps(), (Steps{"set_session_context", "configuration_complete", "ccm_activate",
                                  "ccm_passivate", "ccm_activate", "ccm_passivate", "ccm_remove"}));
  exec->_remove_ref();
  EXPECT_EQ(container_->find_servant("a"), nullptr);
  EXPECT_THROW(container_->find_component("a"), Components::InvalidName);
}

TEST_F(Lifecycle, OutOfOrderStepsAreRefused) {
  ProbeNode a = create("a");
  try {
    container_->activate_component(a.ref.in());
    FAIL() << "activated before configuration_complete";
  } catch (const Components::IllegalState& e) {
    EXPECT_STREQ(e.message.in(),
                 "component 'a' is context set, not configured; ccm_activate refused");
  }
  EXPECT_THROW(container_->passivate_component(a.ref.in()), Components::IllegalState);
  a.ref->configuration_complete();
  EXPECT_THROW(a.ref->configuration_complete(), Components::IllegalState);
  EXPECT_THROW(a.ref->set_configuration(rate(1)), Components::InvalidConfiguration);
  EXPECT_EQ(a.exec->steps(), (Steps{"set_session_context", "configuration_complete"}));
}

TEST_F(Lifecycle, RemoveWithoutActivationSkipsPassivate) {
  ProbeNode a = create("a");
  a.exec->_add_ref();
  probe::NodeExec* exec = a.exec;
  home_->remove_component(a.ref.in());
  EXPECT_EQ(exec->steps(), (Steps{"set_session_context", "ccm_remove"}));
  exec->_remove_ref();
}

// An event from another process may be running in the executor when the
// component is removed: ccm_remove, and the context's release, wait for it.
TEST_F(Lifecycle, RemovalWaitsForACallInProgress) {
  ProbeNode a = create("a");
  a.ref->configuration_complete();
  container_->activate_component(a.ref.in());
  a.exec->_add_ref();  // both read after the removal
  a.servant->_add_ref();
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  Steps seen_by_the_call;
  a.exec->before_echo([&, exec = a.exec] {
    entered.set_value();
    released.wait();
    seen_by_the_call = exec->steps();
  });
  Probe::TickConsumer_var sink = a.ref->get_consumer_echoes();
  std::thread call([&] {
    Probe::Tick_var tick = new Probe_glue::Tick_value(1);
    sink->push_Tick(tick.in());
  });
  entered.get_future().wait();
  std::thread removal([&] { a.ref->remove(); });
  while (a.servant->state() != mwccm::LifecycleState::removed) std::this_thread::yield();
  release.set_value();
  call.join();
  removal.join();
  EXPECT_EQ(seen_by_the_call, (Steps{"set_session_context", "configuration_complete",
                                     "ccm_activate", "ccm_passivate"}));
  EXPECT_EQ(a.exec->steps().back(), "ccm_remove");
  EXPECT_EQ(a.exec->echoes(), std::vector<CORBA::ULongLong>{1});
  a.servant->_remove_ref();
  a.exec->_remove_ref();
}

TEST_F(Lifecycle, KeysAreUniqueAndGenerated) {
  Components::CCMObject_var first = home_->create_component();
  Components::CCMObject_var second = home_->create_component();
  EXPECT_NE(container_->find_servant("NodeHome.1"), nullptr);
  EXPECT_NE(container_->find_servant("NodeHome.2"), nullptr);
  EXPECT_THROW(home_->create_named_component("NodeHome.1"), Components::CreateFailure);
  Components::Deployment::CCMObjects_var all = container_->get_components();
  EXPECT_EQ(all->length(), 2u);
}

}  // namespace
}  // namespace mwccm_test
