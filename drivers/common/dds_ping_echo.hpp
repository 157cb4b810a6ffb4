// The serving end the DDS drivers share (cyclonedds, fastdds): every ping is
// answered on the pong topic with its sequence number and timestamp (and,
// for `octets`, whether the payload arrived intact). The server process runs
// it on its main thread, a collocated process on a thread of its own (or,
// with wait=listener, on none: the middleware's thread answers).
//
// A vendor's Echo derives from PingEcho<Echo> and supplies (CRTP: no virtual
// call on the measured path):
//
//   bool take_ping(PingView& ping);  false when nothing is left; throws; a
//       sample without valid data is skipped, not returned
//   void send_pong(const PingStamp& pong);           throws
//   bool pong_reader_matched() noexcept;
//   bool pongs_acknowledged() noexcept;   all written pongs acknowledged now
//   void wait_for_pings(bool refused);    blocks in the waitset (its guard
//       condition and, for wait=waitset, the ping reader's read condition);
//       after a refusal at most 100 ms; throws
//   void wake() noexcept;                 triggers the guard condition
//   void refused_once() noexcept;         the first refusal: serve() is to
//       start checking whether it arrived
//
// and calls answer_all() from its ping reader's listener.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>

#include "common/dds_ping_client.hpp"
#include "common/payload_pattern.hpp"
#include "common/wait_strategy.hpp"
#include "mwbench/clock.hpp"

namespace mwbench::common {

// What the skeleton reads of a ping sample.
struct PingView {
  std::uint64_t seq = 0;
  std::uint64_t stamp = 0;
  const std::uint8_t* payload = nullptr;
  std::size_t length = 0;
};

template <class Vendor>
class PingEcho {
 public:
  // Serves until stop(): wait=waitset waits on the read condition, poll spins
  // on take, listener leaves the answering to the listener and only waits
  // for the guard condition. Throws on a DDS error.
  void serve() {
    while (!stop_.load(std::memory_order_relaxed) && !refusal_delivered()) {
      if (wait_ == Wait::poll) {
        answer_all();
      } else {
        // After a mismatch, wake up now and then to see whether to end.
        vendor().wait_for_pings(failed_at_ns_.load(std::memory_order_relaxed) != 0);
        if (wait_ == Wait::waitset) answer_all();
      }
    }
  }

  // From any thread; serve() returns soon after.
  void stop() noexcept {
    stop_.store(true, std::memory_order_relaxed);
    vendor().wake();
  }

  // The first failure of the answering side (a payload mismatch with
  // verify=1, a failed write in the listener); empty if none.
  std::string failure() const {
    const std::lock_guard lock(failure_mutex_);
    return failure_;
  }

 protected:
  // A ping whose payload fails `check` (verify=1) is refused: its pong says so.
  PingEcho(Wait wait, PayloadCheck check) : wait_(wait), check_(check) {}
  ~PingEcho() = default;

  // Takes every ping there is and writes its pong. noexcept: it also runs on
  // the middleware's thread; a failure is kept for failure() and stops serve().
  void answer_all() noexcept {
    try {
      PingView ping;
      while (vendor().take_ping(ping)) {
        const bool refused = !check_.intact(ping.payload, ping.length);
        const bool to_reader = refused && vendor().pong_reader_matched();
        try {
          vendor().send_pong({ping.seq, ping.stamp, refused ? 0u : 1u});
        } catch (const std::exception& e) {
          record_failure(e.what());
        }
        if (refused) {
          if (to_reader) refused_to_reader_.store(true, std::memory_order_relaxed);
          record_failure("octets: " + check_.mismatch(ping.payload, ping.length),
                         /*refused=*/true);
        }
      }
    } catch (const std::exception& e) {
      record_failure(e.what());
    }
  }

  bool stopped() const noexcept { return stop_.load(std::memory_order_relaxed); }
  Wait wait() const noexcept { return wait_; }

 private:
  // How long a refusing echo goes on answering at most, in case the client
  // has gone.
  static constexpr std::uint64_t kLingerNs = 10'000'000'000;

  Vendor& vendor() noexcept { return static_cast<Vendor&>(*this); }

  bool refusal_delivered() noexcept {
    const std::uint64_t failed_at = failed_at_ns_.load(std::memory_order_relaxed);
    if (failed_at == 0) return false;
    if (mwbench::now_ns() - failed_at > kLingerNs) return true;
    return refused_to_reader_.load(std::memory_order_relaxed) && vendor().pongs_acknowledged();
  }

  // Keeps the first failure. A write or take error stops serve() at once. A
  // payload mismatch (`refused`) lets it go on answering until the client
  // has acknowledged a pong that says so: the client may not yet have
  // matched the pong writer when its first ping was refused, and pings
  // again. At most kLingerNs, in case the client has gone.
  void record_failure(std::string message, bool refused = false) noexcept {
    {
      const std::lock_guard lock(failure_mutex_);
      if (failure_.empty()) failure_ = std::move(message);
    }
    if (!refused) {
      stop();
      return;
    }
    std::uint64_t none = 0;
    if (failed_at_ns_.compare_exchange_strong(none, mwbench::now_ns(), std::memory_order_relaxed)) {
      vendor().refused_once();
    }
  }

  const Wait wait_;
  const PayloadCheck check_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
  std::atomic<std::uint64_t> failed_at_ns_{0};  // mwbench::now_ns() of the first refusal
  std::atomic<bool> refused_to_reader_{false};  // a refusal written while a reader matched
};

}  // namespace mwbench::common

// The hooks above, declared once: a vendor's Echo says
// MWBENCH_DDS_PING_ECHO_HOOKS(Echo) among its private members and defines
// them.
#define MWBENCH_DDS_PING_ECHO_HOOKS(Vendor)               \
  friend class mwbench::common::PingEcho<Vendor>;         \
  bool take_ping(mwbench::common::PingView& ping);        \
  void send_pong(const mwbench::common::PingStamp& pong); \
  bool pong_reader_matched() noexcept;                    \
  bool pongs_acknowledged() noexcept;                     \
  void wait_for_pings(bool refused);                      \
  void wake() noexcept;                                   \
  void refused_once() noexcept;
