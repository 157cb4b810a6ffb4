// The subscriber side of the zmq driver's fan-out: K subscribers, each a SUB
// socket (subscribed to everything) and a PUSH socket for its replies, both
// bound, served on a thread of its own blocked in zmq_recv (or spinning, with
// wait=spin). A server process runs the K it hosts; a collocated process runs
// all N beside its publisher, in the same context, over inproc.
//
// Both sockets bind because the subscriber processes start first and the
// publisher last: the publisher's PUB connects to every SUB, its PULL to
// every PUSH (ZeroMQ lets either end of a pattern bind). A PUSH per
// subscriber, rather than one per process, keeps the subscribers independent:
// a ZeroMQ socket belongs to one thread.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "mwbench/options.hpp"
#include "zmq_messages.hpp"
#include "zmq_replier.hpp"

namespace zmq_driver {

class Subscribers {
 public:
  // Binds subscribers `first` to `first + count - 1` in `context`, where
  // bind_endpoint() says. `on_fatal(message)` runs on a subscriber's thread
  // that fails: a wrong message, or an error of ZeroMQ other than the
  // context's shutdown.
  Subscribers(zmq::context_t& context, const mwbench::DriverOptions& options, int count, int first,
              const PrivateDir* dir, std::function<void(const std::string&)> on_fatal);
  ~Subscribers();  // shuts the context down and joins what join() did not
  Subscribers(const Subscribers&) = delete;
  Subscribers& operator=(const Subscribers&) = delete;

  // Two per subscriber, in subscriber order: its SUB socket's, then its
  // PUSH socket's. The endpoint line is these, separated by spaces.
  const std::vector<std::string>& endpoints() const noexcept { return endpoints_; }

  // Serves every subscriber on a thread of its own until the context is
  // shut down.
  void start();

  // Waits for the threads (shut the context down first); rethrows the first
  // failure. Returns the events each subscriber received and replied to.
  std::vector<std::uint64_t> join();

 private:
  struct Subscriber {
    zmq::socket_t sub;
    zmq::socket_t push;
    std::uint32_t number = 0;
    std::uint64_t received = 0;
  };

  void serve(Subscriber& s);

  zmq::context_t& context_;
  const mwbench::DriverOptions& options_;
  const Wait wait_;
  const bool verify_;
  std::vector<Subscriber> subscribers_;
  std::vector<std::string> endpoints_;
  ServingThreads threads_;
};

}  // namespace zmq_driver
