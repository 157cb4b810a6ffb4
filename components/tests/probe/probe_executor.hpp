// The user's side of the Probe component: what a component author writes.
// It records every lifecycle step and event so tests can check them. Every
// executor counts its references (mwccm/local_object.hpp): omniORB's
// LocalObject does not, and an executor that does not count is never deleted.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "probe_glue.hpp"

namespace probe {

class CounterExec final : public virtual Probe::CCM_Counter,
                          public virtual mwccm::CountedLocalObject {
 public:
  CORBA::Long increment(CORBA::Long by) override { return total_ += by; }

 private:
  std::atomic<CORBA::Long> total_{0};
};

class NodeExec final : public virtual Probe::CCM_Node, public virtual mwccm::CountedLocalObject {
 public:
  Probe::CCM_Counter_ptr get_count() override {
    return Probe::CCM_Counter::_duplicate(counter_.in());
  }
  void push_echoes(Probe::Tick* ev) override;
  CORBA::ULong rate() override { return rate_; }
  void rate(CORBA::ULong value) override { rate_ = value; }

  void set_session_context(Components::SessionContext_ptr ctx) override;
  void configuration_complete() override { record("configuration_complete"); }
  void ccm_activate() override { record("ccm_activate"); }
  void ccm_passivate() override { record("ccm_passivate"); }
  void ccm_remove() override;

  Probe::CCM_Node_Context_ptr context() const noexcept { return context_.in(); }
  // Runs at the start of every push_echoes, on the pushing thread (a test's
  // hold on a call in progress). Set before the first push.
  void before_echo(std::function<void()> hook) { before_echo_ = std::move(hook); }
  std::vector<std::string> steps() const;
  std::vector<CORBA::ULongLong> echoes() const;

 private:
  void record(const char* step);

  Probe::CCM_Counter_var counter_ = new CounterExec;
  Probe::CCM_Node_Context_var context_;
  CORBA::ULong rate_ = 0;
  std::function<void()> before_echo_;
  mutable std::mutex mutex_;
  std::vector<std::string> steps_;
  std::vector<CORBA::ULongLong> echoes_;
};

class NodeHomeExec final : public virtual Probe::CCM_NodeHome,
                           public virtual mwccm::CountedLocalObject {
 public:
  Components::EnterpriseComponent_ptr create() override { return new NodeExec; }
};

}  // namespace probe
