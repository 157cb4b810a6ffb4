// Waiting for spawned processes' callbacks (started_callback.hpp).
#include <mwccm/deployment/started_callback.hpp>
#include <stdexcept>

namespace mwccm::deployment {

void StartedCallbackServant::started(const char* name, CORBA::Object_ptr reference) {
  {
    std::lock_guard lock(mutex_);
    references_[name] = CORBA::Object::_duplicate(reference);
  }
  called_.notify_all();
}

CORBA::Object_ptr StartedCallbackServant::wait_for(const std::string& name, ChildProcess& child,
                                                   std::chrono::milliseconds timeout) {
  child.on_exit([this] {
    std::lock_guard lock(mutex_);  // orders the wake-up after the waiter's check
    called_.notify_all();
  });
  std::unique_lock lock(mutex_);
  const bool ready = called_.wait_for(
      lock, timeout, [&] { return references_.count(name) != 0 || child.exited(); });
  auto found = references_.find(name);
  if (found != references_.end()) {
    CORBA::Object_ptr reference = found->second._retn();
    references_.erase(found);
    return reference;
  }
  lock.unlock();
  if (!ready) {
    throw std::runtime_error("'" + name + "' (process " + std::to_string(child.pid()) +
                             ") did not call back within " +
                             std::to_string(timeout.count() / 1000) + " s");
  }
  throw std::runtime_error("'" + name + "' (process " + std::to_string(child.pid()) + ") " +
                           child.exit_description() + " before calling back");
}

}  // namespace mwccm::deployment
