// The REP side of the zmq driver: one REP socket per client thread, each
// served on a thread of its own, so that --threads N means N REQ/REP pairs
// and nothing shared but the context (as rawtcp's N connections, N server
// threads). The server runs it in its own process; a collocated process runs
// it beside its REQ sockets, in the same context, over inproc.
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "common/private_dir.hpp"
#include "mwbench/options.hpp"
#include "zmq_messages.hpp"

namespace zmq_driver {

// A private directory under /tmp (drivers/common) for the uds transport's
// socket files (ipc://).
// Destroy it after the context that bound them, so that libzmq has closed
// every listener first.
class PrivateDir : public mwbench::common::PrivateDir {
 public:
  PrivateDir() : mwbench::common::PrivateDir("mwbench-zmq") {}
};

// The threads that serve sockets (Repliers, Subscribers): each runs until the
// context is shut down (ETERM); the first other failure is kept for join()
// and reported to `on_fatal` at once, prefixed by the thread's `what`.
class ServingThreads {
 public:
  explicit ServingThreads(std::function<void(const std::string&)> on_fatal)
      : on_fatal_(std::move(on_fatal)) {}
  ~ServingThreads() { wait(); }
  ServingThreads(const ServingThreads&) = delete;
  ServingThreads& operator=(const ServingThreads&) = delete;

  void start(std::function<void()> serve, std::string what);
  // Waits for the threads; rethrows the first failure.
  void join();

 private:
  void wait() noexcept;
  void keep(std::exception_ptr failure) noexcept;

  std::function<void(const std::string&)> on_fatal_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;  // guards failure_
  std::exception_ptr failure_;
};

// Where a socket named `name` (unique in its process) binds: transport
// "tcp" on --bind with a port the kernel picks (ZeroMQ's last_endpoint then
// names the address and the port), "uds" as the ipc:// socket file `name` in `dir`,
// "inproc" by name.
std::string bind_endpoint(const mwbench::DriverOptions& options, const std::string& name,
                          const PrivateDir* dir);

class Repliers {
 public:
  // Binds `count` REP sockets in `context`, where bind_endpoint() says.
  // `on_fatal(message)` runs on a serving thread that fails: a payload
  // mismatch (verify=1) or an error of ZeroMQ other than the context's
  // shutdown.
  Repliers(zmq::context_t& context, const mwbench::DriverOptions& options, int count,
           const PrivateDir* dir, std::function<void(const std::string&)> on_fatal);
  ~Repliers();  // shuts the context down and joins what join() did not
  Repliers(const Repliers&) = delete;
  Repliers& operator=(const Repliers&) = delete;

  // One per socket, in the order the client threads take them.
  const std::vector<std::string>& endpoints() const noexcept { return endpoints_; }

  // Serves every socket on a thread of its own until the context is shut
  // down (zmq::context_t::shutdown(), which wakes every blocked receive).
  void start();

  // Waits for the serving threads; rethrows the first failure.
  void join();

 private:
  void serve(zmq::socket_t& socket);

  zmq::context_t& context_;
  const mwbench::DriverOptions& options_;
  const Wait wait_;
  const bool verify_;
  std::vector<zmq::socket_t> sockets_;
  std::vector<std::string> endpoints_;
  ServingThreads threads_;
};

}  // namespace zmq_driver
