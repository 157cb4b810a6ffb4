// The subscriber side of rawtcp's fan-out: the K subscribers one server
// process hosts (--subscribers K, numbered from --first-subscriber).
//
// Each subscriber has a listening socket of its own, takes one connection
// from the publisher on it and serves that connection on a thread of its own,
// blocked in recv(): K subscribers are K independent readers, as a
// middleware's K subscriber sockets are. One listener per subscriber, rather
// than one per process, is what numbers the connections: the process's
// endpoint lists the K listeners in subscriber order, so the publisher knows
// which subscriber each connection reaches without asking, and each
// subscriber's hello (its number, sent once it has accepted and is about to
// read) lets the publisher check it. Every thread exists and waits in
// accept() before the endpoint is published.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mwbench/options.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

class Subscribers {
 public:
  // Listens for each subscriber (transport tcp or uds). `on_fatal` runs on a
  // subscriber's thread that finds a wrong event (a length other than
  // --payload-bytes, or with verify=1 a wrong byte); the server uses it to stop.
  Subscribers(const mwbench::DriverOptions& o, bool nodelay, bool verify,
              std::function<void()> on_fatal);
  ~Subscribers();  // shuts down and joins what join() did not
  Subscribers(const Subscribers&) = delete;
  Subscribers& operator=(const Subscribers&) = delete;

  // The endpoint line: every subscriber's listener, in subscriber order,
  // separated by spaces.
  std::string endpoint() const;

  // Starts every subscriber's thread: accept one connection, send the hello,
  // then receive events and reply until the publisher closes it.
  void start();

  // Wakes every thread blocked in accept() or recv() (from the stop callback).
  void shut_down() noexcept;

  // Waits for every thread; rethrows the first wrong event. Returns the events
  // each subscriber received and replied to, first subscriber first.
  std::vector<std::uint64_t> join();

 private:
  struct Subscriber {
    Listener listener;
    Socket connection;  // closed only after join(), so shut_down() never
                        // touches a descriptor reused by someone else
    std::uint64_t received = 0;
  };

  void serve(Subscriber& s, std::uint32_t number);
  void adopt(Subscriber& s, int fd);

  const mwbench::DriverOptions& options_;
  const bool nodelay_;
  const bool verify_;
  std::function<void()> on_fatal_;
  std::vector<Subscriber> subscribers_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;  // guards shut_, every connection's descriptor, fatal_
  bool shut_ = false;
  std::exception_ptr fatal_;
};

}  // namespace rawtcp
