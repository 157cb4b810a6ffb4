// The publisher side of rawtcp's fan-out: the baseline "write N copies".
//
// The publisher holds one connection per subscriber and, per event, writes
// the event to each connection in turn, then waits in epoll_wait() over all
// N until every subscriber has replied (mwbench::ReplyTally counts the
// replies). That is the least a publisher can do without a middleware: N
// send()s, then the wake-ups and recv()s of N replies. epoll rather than
// poll(): the N sockets are registered once, so a wait costs the replies
// that are ready, not a scan of all N.
#pragma once

#include <sys/epoll.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

class Publisher {
 public:
  // Connects to every subscriber (`lines`: each subscriber process's endpoint
  // line, in the order of the subscriber numbers), then waits, within
  // --timeout, for every subscriber's hello. Throws naming the subscribers
  // that are missing or misnumbered.
  Publisher(const mwbench::DriverOptions& o, const std::vector<std::string>& lines, bool nodelay);

  // One event, the measured call: write it to every subscriber, wait for
  // every reply. A wrong reply, a broken connection, or no reply for
  // --timeout reports m.fail() naming the subscriber; the calls after it do
  // nothing, so the rest of a batch does not wait --timeout again.
  void publish(mwbench::Measurement& m);

  // Events sent (warm-up and measured; the hellos are not events).
  std::uint64_t published() const noexcept { return tally_.published(); }

 private:
  void await_hellos(double timeout_s);
  void await_replies(mwbench::Measurement& m);
  void fail(mwbench::Measurement& m, const std::string& why);

  std::vector<Socket> subscribers_;  // index: subscriber number
  Socket epoll_;
  std::vector<epoll_event> ready_;
  std::vector<std::uint8_t> event_;  // built once; each event writes its number
  mwbench::ReplyTally tally_;
  int timeout_ms_;
  std::uint64_t next_event_ = 0;
  bool failed_ = false;
};

}  // namespace rawtcp
