// The server side of rawtcp: one thread per connection, so that each client
// thread of --threads N has a server thread of its own, as with a middleware
// that dispatches a thread per connection.
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mwbench/options.hpp"
#include "rawtcp_stall.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

// A wrong payload with verify=1: fatal, unlike a client going away.
class PayloadMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Serves one connection until the client closes it between two messages,
// stalling as `stalls` says. Throws PayloadMismatch (verify=1), or
// std::runtime_error when the connection breaks.
void serve_connection(int fd, const mwbench::DriverOptions& o, bool verify, StallPlan& stalls);

// The open connections and their threads. shut_down() wakes every thread
// blocked in recv() (from the stop callback), and any connection added later
// is shut down at once, so that join() always returns.
class ConnectionSet {
 public:
  // `on_fatal` runs (on the connection's thread) when a connection ends with
  // PayloadMismatch; the server uses it to stop.
  explicit ConnectionSet(std::function<void()> on_fatal) : on_fatal_(std::move(on_fatal)) {}
  ConnectionSet(const ConnectionSet&) = delete;
  ConnectionSet& operator=(const ConnectionSet&) = delete;
  ~ConnectionSet();  // shuts down and joins what join() did not

  // Serves `socket` with `serve(fd)` on a thread of its own. Any other
  // exception than PayloadMismatch ends that connection with a warning.
  void serve(Socket socket, std::function<void(int)> serve);

  void shut_down() noexcept;

  // Waits for every connection's thread; rethrows the first PayloadMismatch.
  void join();

 private:
  std::function<void()> on_fatal_;
  std::mutex mutex_;  // guards everything below
  bool shut_ = false;
  std::set<int> open_;  // descriptors not yet closed
  std::vector<std::thread> threads_;
  std::exception_ptr fatal_;
};

}  // namespace rawtcp
