// Endpoint publication, fault injection and the stop callback of a server.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "mwbench/driver.hpp"

namespace mwbench {

ServerContext::ServerContext(const DriverOptions& options) : options_(options) {}

void ServerContext::publish_endpoint(const std::string& endpoint) {
  const std::string& path = options_.endpoint_file;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << endpoint << '\n';
    out.flush();
    if (!out) {
      throw std::runtime_error("cannot write endpoint file '" + tmp + "': " + std::strerror(errno));
    }
  }
  // rename() replaces the name in one step: a client sees no file or a whole one.
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path +
                             "': " + std::strerror(errno));
  }

  // Injected faults, for tests of the orchestrator (contract section 2).
  const std::string fault = options_.option("fault", "");
  if (fault == "crash") std::abort();
  if (fault == "hang") {
    // Not even SIGTERM ends this: the orchestrator must fall back to SIGKILL.
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }
}

void ServerContext::on_stop(std::function<void()> callback) {
  // The callback runs under the lock, so unregistering waits for a running
  // one and never leaves it using objects that serve() has destroyed.
  std::lock_guard lock(mutex_);
  callback_ = std::move(callback);
  callback_ran_ = false;
  if (callback_ && stop_.load()) {
    callback_ran_ = true;
    callback_();
  }
}

void ServerContext::request_stop() {
  stop_.store(true);
  std::lock_guard lock(mutex_);
  if (callback_ && !callback_ran_) {
    callback_ran_ = true;
    callback_();
  }
}

}  // namespace mwbench
