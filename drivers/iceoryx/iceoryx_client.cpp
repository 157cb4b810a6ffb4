// The client end: ping publisher, pong subscriber, the two waits, the open
// loop.
#include "iceoryx_client.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/open_loop_pings.hpp"
#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace iceoryx {

Client::Client(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement, std::uint64_t queue_capacity)
    : endpoint_(endpoint),
      call_(wait, payload_bytes, timeout_s, measurement),
      publisher_(service(endpoint, endpoint.ping), publisher_options()),
      subscriber_(service(endpoint, endpoint.pong), subscriber_options(queue_capacity)) {
  if (wait == Wait::waitset) {
    waitset_.emplace();
    attach(*waitset_, subscriber_, "pong subscriber");
  }
}

void Client::connect() {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(call_.timeout_s);
  const std::string after =
      " after " + seconds_text(call_.timeout_s) + " s (is the server running?)";
  while (!publisher_.hasSubscribers()) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no subscriber of " + endpoint_.ping_name() + after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  while (subscriber_.getSubscriptionState() != iox::SubscribeState::SUBSCRIBED) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no publisher offers " + endpoint_.pong_name() + after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void Client::call() {
  Message* ping = loan_ping(++seq_);
  ping->stamp = stamp_ = mwbench::now_ns();
  publisher_.publish(ping);
  if (!await_pong()) {
    throw std::runtime_error("no pong for ping " + std::to_string(seq_) + " on " +
                             endpoint_.pong_name() + " within " + seconds_text(call_.timeout_s) +
                             " s (--timeout)");
  }
}

void Client::run_open() {
  mwbench::common::OpenLoopPings pings(call_.measurement, seq_ + 1);
  const auto wake = iox::units::Duration::fromNanoseconds(
      static_cast<std::uint64_t>(mwbench::common::kReaderWakeS * 1e9));
  mwbench::common::run_open_reading(
      call_.measurement,
      [this, &pings](std::uint64_t call) {
        const mwbench::common::PingStamp stamped = pings.ping(call);
        Message* ping = loan_ping(stamped.seq);
        ping->stamp = stamped.stamp;
        publisher_.publish(ping);
      },
      [this, &pings, wake] {
        // Woken by a pong, or after `wake` to see whether the loop has ended.
        if (call_.wait == Wait::waitset) static_cast<void>(waitset_->timedWait(wake));
        Message pong{};
        while (take_pong(pong)) pings.answered({pong.seq, pong.stamp, pong.status});
      });
}

Message* Client::loan_ping(std::uint64_t seq) {
  const auto size = static_cast<std::uint32_t>(sizeof(Message) + call_.payload.size());
  auto* ping = static_cast<Message*>(loan_chunk(publisher_, size, alignof(Message)));
  ping->seq = seq;
  ping->status = kIntact;
  ping->payload_bytes = static_cast<std::uint32_t>(call_.payload.size());
  if (!call_.payload.empty()) std::memcpy(ping + 1, call_.payload.data(), call_.payload.size());
  return ping;
}

bool Client::take_pong(Message& pong) {
  const auto taken = subscriber_.take();
  if (taken.has_error()) {
    if (taken.get_error() == iox::popo::ChunkReceiveResult::NO_CHUNK_AVAILABLE) return false;
    throw std::runtime_error(std::string("take (pong): ") +
                             iox::popo::asStringLiteral(taken.get_error()));
  }
  pong = *static_cast<const Message*>(taken.value());
  subscriber_.release(taken.value());
  return true;
}

bool Client::await_pong() {
  mwbench::common::SpinTimeout spinning(call_.timeout_ns);
  for (;;) {
    Message pong{};
    if (take_pong(pong)) {
      if (pong.seq < seq_) continue;  // a late answer to an earlier ping
      check_pong(pong);
      return true;
    }
    if (call_.wait == Wait::waitset) {
      // timedWait() may return nothing early (a semaphore post left over from
      // a notification already seen): the ping's own timestamp says whether
      // --timeout has passed, so only an empty return reads the clock.
      if (waitset_->timedWait(iox::units::Duration::fromNanoseconds(call_.timeout_ns)).empty() &&
          mwbench::now_ns() - stamp_ >= static_cast<std::uint64_t>(call_.timeout_ns)) {
        return false;
      }
    } else if (spinning.expired()) {
      return false;
    }
  }
}

void Client::check_pong(const Message& pong) {
  if (pong.seq != seq_) {
    call_.measurement.fail("pong " + std::to_string(pong.seq) +
                           " answers no ping sent (last ping " + std::to_string(seq_) + ")");
  } else if (pong.stamp != stamp_) {
    call_.measurement.fail("pong " + std::to_string(pong.seq) + " carries the timestamp " +
                           std::to_string(pong.stamp) + ", its ping " + std::to_string(stamp_));
  } else if (pong.status != kIntact) {
    call_.measurement.fail("octets: the server found a payload mismatch (verify=1)");
  }
}

}  // namespace iceoryx
