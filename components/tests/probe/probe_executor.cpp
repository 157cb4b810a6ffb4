// The Probe executors and their registration (one macro, both assembly modes).
#include "probe_executor.hpp"

#ifndef PROBE_HOME_ENTRYPOINT
#define PROBE_HOME_ENTRYPOINT mwccm_home_Probe_NodeHome
#endif

namespace probe {

void NodeExec::push_echoes(Probe::Tick* ev) {
  if (before_echo_) before_echo_();
  std::lock_guard lock(mutex_);
  echoes_.push_back(ev->number());
}

void NodeExec::set_session_context(Components::SessionContext_ptr ctx) {
  context_ = Probe::CCM_Node_Context::_narrow(ctx);
  record("set_session_context");
}

void NodeExec::ccm_remove() {
  record("ccm_remove");
  context_ = Probe::CCM_Node_Context::_nil();  // lets the servant go
}

void NodeExec::record(const char* step) {
  std::lock_guard lock(mutex_);
  steps_.push_back(step);
}

std::vector<std::string> NodeExec::steps() const {
  std::lock_guard lock(mutex_);
  return steps_;
}

std::vector<CORBA::ULongLong> NodeExec::echoes() const {
  std::lock_guard lock(mutex_);
  return echoes_;
}

}  // namespace probe

MWCCM_REGISTER_HOME(PROBE_HOME_ENTRYPOINT,
                    [] { return new Probe_glue::NodeHome_servant(new probe::NodeHomeExec); });
