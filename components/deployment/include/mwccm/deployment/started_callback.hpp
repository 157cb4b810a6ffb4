// Waiting for spawned processes to call back with their references
// (MwccmDeployment::StartedCallback): the starter blocks until the call
// comes, the process exits, or the time is up; never polls.
#pragma once

#include <MwccmDeployment.hh>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <mwccm/deployment/child_process.hpp>
#include <string>

namespace mwccm::deployment {

class StartedCallbackServant final : public virtual POA_MwccmDeployment::StartedCallback {
 public:
  void started(const char* name, CORBA::Object_ptr reference) override;

  // The reference `name` called back with (a new reference), once `child`
  // has called; std::runtime_error naming the process when it exited first
  // or did not call within `timeout`.
  CORBA::Object_ptr wait_for(const std::string& name, ChildProcess& child,
                             std::chrono::milliseconds timeout);

 private:
  std::mutex mutex_;
  std::condition_variable called_;
  std::map<std::string, CORBA::Object_var> references_;
};

}  // namespace mwccm::deployment
