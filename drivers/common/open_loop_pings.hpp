// The open loop of a ping-pong client (--load constant:R or poisson:R,
// Measurement::run_open), the same for the cyclonedds, fastdds and iceoryx
// clients. The harness's sending thread writes the ping of call k with the
// sequence number first + k, on its schedule, never waiting for a pong;
// whichever thread takes the pongs (a listener, or the reader thread of
// run_open_reading()) hands each to OpenLoopPings::answered(), which checks
// it against its ping and reports call k completed. Replies are matched by
// their sequence number, not by their order.
//
// The ends of a cell queue what is outstanding: an end that knows the load
// (a client, a collocated process) keeps one ping and one pong in a closed
// loop, kOutstandingPings under an open load; a server, which is not told
// the load, always keeps kOutstandingPings (ping_queue_depth()).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <stop_token>
#include <thread>
#include <utility>
#include <vector>

#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"

namespace mwbench::common {

// What a ping or a pong carries that the client checks.
struct PingStamp {
  std::uint64_t seq = 0;
  std::uint64_t stamp = 0;
  std::uint32_t status = 0;  // a pong: 1 when the server found the payload intact
};

// How many pings, and pongs, an end queues under an open load before the
// oldest is overwritten (a reply lost, which the harness counts): the
// history depth of the DDS readers and writers, the queue of the iceoryx
// subscribers. 256 is iceoryx's largest subscriber queue
// (iox::MAX_SUBSCRIBER_QUEUE_CAPACITY): the same bound for the three.
inline constexpr int kOutstandingPings = 256;

// The queue of each ping and pong endpoint of the end `o` runs: 1 for a
// closed loop's client or collocated process (one ping in flight), else
// kOutstandingPings.
inline int ping_queue_depth(const DriverOptions& o) noexcept {
  return o.role == Role::server || o.load.open() ? kOutstandingPings : 1;
}

class OpenLoopPings {
 public:
  // The ping of call 0 carries the sequence number `first_seq`, above every
  // ping sent before (connect()'s, whose late pongs are skipped). Allocates
  // the stamps of --warmup + --samples calls now, before the loop.
  OpenLoopPings(Measurement& measurement, std::uint64_t first_seq);
  OpenLoopPings(const OpenLoopPings&) = delete;
  OpenLoopPings& operator=(const OpenLoopPings&) = delete;

  // The ping of call `call`, stamped with the clock now. The sending thread.
  PingStamp ping(std::uint64_t call) noexcept;

  // A pong has arrived: one of an earlier ping is skipped; one that answers
  // no ping sent, or a ping already answered, or carries another stamp, or
  // says the payload was damaged, fails the measurement; otherwise its call
  // is completed(). The thread that takes pongs.
  void answered(const PingStamp& pong) noexcept;

 private:
  Measurement& measurement_;
  const std::uint64_t first_seq_;
  // Per call: its ping's stamp until its pong is in, then 0. Atomic because
  // the sending thread writes it and the reading thread reads it; the
  // round trip between them orders them, so relaxed suffices.
  std::vector<std::atomic<std::uint64_t>> stamps_;
};

// How long a reader thread's wait for pongs lasts at most, so that it sees
// the end of the loop when no pong is left to wake it.
inline constexpr double kReaderWakeS = 0.05;

// Runs m.run_open(send) while a thread of its own calls read() over and
// over until run_open() has returned: read() waits for pongs (at most
// kReaderWakeS), takes every one there is and hands it to answered(). An
// exception from read() fails the measurement.
template <class Send, class Read>
void run_open_reading(Measurement& m, Send&& send, Read&& read) {
  const std::jthread reader([&m, &read](const std::stop_token& stop) {
    try {
      while (!stop.stop_requested()) read();
    } catch (const std::exception& e) {
      m.fail(e.what());
    }
  });  // its destructor asks it to stop and joins it
  m.run_open(std::forward<Send>(send));
}

}  // namespace mwbench::common
