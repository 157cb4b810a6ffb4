// The client logic the DDS drivers share (cyclonedds, fastdds): how it
// connects (match, then ping until answered), one measured round trip, the
// chained loop of wait=chain, the open loop of --load and the check of each
// pong. A vendor's Client derives from PingClient<Client> and supplies only
// what its API spells differently (CRTP: no virtual call on the measured
// path):
//
//   bool ping_reader_matched();   the ping writer has matched a reader
//   bool pong_writer_matched();   the pong reader has matched a writer
//   void send_ping(const PingStamp& ping);           writes a ping; throws
//   bool wait_in_waitset(const PingTimeout& timeout); false on timeout; throws
//   bool take_pong(PingStamp& pong);  false when nothing is left; throws; a
//       sample without valid data (a state change) is skipped, not returned
//
// and calls pong_available() from its reader's listener (wait=listener and
// chain). Waiting on the doorbell (listener, chain), spinning (poll) and the
// open loop's reader thread are the same for every vendor and live here.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "common/dds_endpoint.hpp"
#include "common/doorbell.hpp"
#include "common/open_loop_pings.hpp"
#include "common/seconds_text.hpp"
#include "common/spin_timeout.hpp"
#include "common/wait_strategy.hpp"
#include "mwbench/clock.hpp"
#include "mwbench/measurement.hpp"

namespace mwbench::common {

// A timeout in the two forms the waits take, and the deadline of connect().
struct PingTimeout {
  std::int64_t ns;
  timespec ts;

  // The moment `seconds` from now, for the loops of connect().
  static std::chrono::steady_clock::time_point deadline(double seconds) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(seconds));
  }

  static PingTimeout of(double seconds) noexcept {
    const auto ns = static_cast<std::int64_t>(seconds * 1e9);
    return {ns, {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)}};
  }
};

template <class Vendor>
class PingClient {
 public:
  // Before the warm-up: waits until the ping writer has matched a reader and
  // the pong reader a writer, then sends pings until one is answered (which
  // proves that the server's pong writer has matched this reader too).
  // Throws "no matching reader on topic ... after N s" and the like after
  // --timeout.
  void connect() {
    const auto deadline = PingTimeout::deadline(timeout_s_);
    const std::string after = " after " + seconds_text(timeout_s_) + " s (domain " +
                              std::to_string(endpoint_.domain) + "; is the server running?)";
    while (!vendor().ping_reader_matched()) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("no matching reader on topic " + endpoint_.ping_topic + after);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    while (!vendor().pong_writer_matched()) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("no matching writer on topic " + endpoint_.pong_topic + after);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // Matched here does not mean matched there: until the server has
    // discovered this reader, its pongs go nowhere. So ping until answered.
    const PingTimeout attempt = PingTimeout::of(kHandshakeAttemptS);
    while (std::chrono::steady_clock::now() < deadline) {
      write_ping();
      if (await_pong(attempt)) return;
    }
    throw std::runtime_error("no pong on topic " + endpoint_.pong_topic + " answered a ping on " +
                             endpoint_.ping_topic + after);
  }

  // One measured round trip: write a ping, wait for its pong, check it.
  // Throws when no pong comes within --timeout.
  void call() {
    write_ping();
    if (!await_pong(timeout_)) {
      throw std::runtime_error("no pong for ping " + std::to_string(seq_.load()) + " on topic " +
                               endpoint_.pong_topic + " within " + seconds_text(timeout_s_) +
                               " s (--timeout)");
    }
  }

  // wait=chain, after connect(): the measured loop on the middleware's
  // thread. The pong listener takes each pong, checks it and calls
  // Measurement::replied(), which writes the next ping from there.
  void run_chained() {
    loop_.store(Loop::chained, std::memory_order_release);
    measurement_.run_chained([this] { write_ping(); });
  }

  // An open --load, after connect() (open_loop_pings.hpp): the harness's
  // thread writes the pings on its schedule; the pongs are taken by the
  // listener (wait=listener), or by a reader thread that waits in the
  // waitset (waitset) or spins on take (poll). wait=chain is refused before
  // (pubsub_settings()).
  void run_open() {
    open_.emplace(measurement_, seq_.load() + 1);
    const auto send = [this](std::uint64_t call) { vendor().send_ping(open_->ping(call)); };
    if (wait_ == Wait::listener) {
      loop_.store(Loop::open, std::memory_order_release);
      measurement_.run_open(send);
      return;
    }
    const PingTimeout wake = PingTimeout::of(kReaderWakeS);
    run_open_reading(measurement_, send, [this, wake] {
      if (wait_ == Wait::waitset && !vendor().wait_in_waitset(wake)) return;
      PingStamp pong;
      while (vendor().take_pong(pong)) open_->answered(pong);
    });
  }

 protected:
  PingClient(const DdsEndpoint& endpoint, Wait wait, double timeout_s,
             mwbench::Measurement& measurement)
      : endpoint_(endpoint),
        wait_(wait),
        measurement_(measurement),
        timeout_s_(timeout_s),
        timeout_(PingTimeout::of(timeout_s)) {}

  // From the pong reader's listener: rings the doorbell (wait=listener, and
  // chain during connect()), or with the chain or the open loop running
  // takes each pong.
  void pong_available() noexcept {
    switch (loop_.load(std::memory_order_acquire)) {
      case Loop::closed:
        doorbell_.ring();  // the waiter takes the pong itself
        break;
      case Loop::chained:
        take_pongs();
        break;
      case Loop::open:
        take_open_pongs();
        break;
    }
  }

  Wait wait() const noexcept { return wait_; }

 private:
  // How long connect() waits for the answer to one ping before sending another.
  static constexpr double kHandshakeAttemptS = 0.1;

  Vendor& vendor() noexcept { return static_cast<Vendor&>(*this); }

  void write_ping() {
    const PingStamp ping{seq_.load(std::memory_order_relaxed) + 1, mwbench::now_ns(), 0};
    seq_.store(ping.seq, std::memory_order_relaxed);
    stamp_.store(ping.stamp, std::memory_order_relaxed);
    vendor().send_ping(ping);
  }

  // Waits for the pong of ping `seq_`, skipping older pongs (answers to the
  // repeated pings of connect()); checks it. False on timeout.
  bool await_pong(const PingTimeout& timeout) {
    mwbench::common::SpinTimeout spinning(timeout.ns);
    for (;;) {
      switch (wait_) {
        case Wait::waitset:
          if (!vendor().wait_in_waitset(timeout)) return false;
          break;
        case Wait::listener:
        case Wait::chain:  // connect(): the listener rings until the chain begins
          if (!doorbell_.wait(timeout.ts)) return false;
          break;
        case Wait::poll:
          if (spinning.expired()) return false;
          break;
      }
      // Take everything there is: with a listener, one ring may stand for
      // several samples (a late answer from connect(), then ours).
      PingStamp pong;
      while (vendor().take_pong(pong)) {
        if (pong.seq < seq_.load()) continue;  // a late answer to a ping of connect()
        check_pong(pong);
        return true;
      }
    }
  }

  void take_pongs() noexcept {
    try {
      PingStamp pong;
      while (vendor().take_pong(pong)) {
        if (pong.seq < seq_.load()) continue;  // stale: connect()'s pings
        check_pong(pong);
        measurement_.replied();  // writes the next ping, from this thread
      }
    } catch (const std::exception& e) {
      measurement_.fail(e.what());
      measurement_.replied();  // the chain sees the failure and ends
    }
  }

  void take_open_pongs() noexcept {
    try {
      PingStamp pong;
      while (vendor().take_pong(pong)) open_->answered(pong);
    } catch (const std::exception& e) {
      measurement_.fail(e.what());
    }
  }

  void check_pong(const PingStamp& pong) {
    const std::uint64_t stamp = stamp_.load(std::memory_order_relaxed);
    if (pong.seq != seq_.load()) {
      measurement_.fail("pong " + std::to_string(pong.seq) + " answers no ping sent (last ping " +
                        std::to_string(seq_.load()) + ")");
    } else if (pong.stamp != stamp) {
      measurement_.fail("pong " + std::to_string(pong.seq) + " carries the timestamp " +
                        std::to_string(pong.stamp) + ", its ping " + std::to_string(stamp));
    } else if (pong.status != 1) {
      measurement_.fail("octets: the server found a payload mismatch (verify=1)");
    }
  }

  const DdsEndpoint endpoint_;  // its topics and domain, for messages
  const Wait wait_;
  mwbench::Measurement& measurement_;
  const double timeout_s_;
  const PingTimeout timeout_;
  Doorbell doorbell_;  // wait=listener, and chain during connect()
  // What the listener does with a pong: ring the doorbell (connect(), and
  // run() with wait=listener), or run the chain or the open loop.
  enum class Loop { closed, chained, open };
  std::atomic<Loop> loop_{Loop::closed};
  // The open loop's pings; made by run_open(), and kept as long as the
  // reader whose listener uses it.
  std::optional<OpenLoopPings> open_;
  // The last ping's number and stamp. Atomic (relaxed) for wait=chain, where
  // the thread that checks a pong is not always the one that wrote its ping;
  // the network round trip between them orders them.
  std::atomic<std::uint64_t> seq_{0};
  std::atomic<std::uint64_t> stamp_{0};
};

}  // namespace mwbench::common

// The hooks above, declared once: a vendor's Client says
// MWBENCH_DDS_PING_CLIENT_HOOKS(Client) among its private members and
// defines them.
#define MWBENCH_DDS_PING_CLIENT_HOOKS(Vendor)                        \
  friend class mwbench::common::PingClient<Vendor>;                  \
  bool ping_reader_matched();                                        \
  bool pong_writer_matched();                                        \
  void send_ping(const mwbench::common::PingStamp& ping);            \
  bool wait_in_waitset(const mwbench::common::PingTimeout& timeout); \
  bool take_pong(mwbench::common::PingStamp& pong);
