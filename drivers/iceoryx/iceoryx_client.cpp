// The client end: ping publisher, pong subscriber, the two waits.
#include "iceoryx_client.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace iceoryx {

Client::Client(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : endpoint_(endpoint),
      call_(wait, payload_bytes, timeout_s, measurement),
      publisher_(service(endpoint, endpoint.ping), publisher_options()),
      subscriber_(service(endpoint, endpoint.pong), subscriber_options()) {
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
  const auto size = static_cast<std::uint32_t>(sizeof(Message) + call_.payload.size());
  void* chunk = loan_chunk(publisher_, size, alignof(Message));
  auto* ping = static_cast<Message*>(chunk);
  ping->seq = ++seq_;
  ping->status = kIntact;
  ping->payload_bytes = static_cast<std::uint32_t>(call_.payload.size());
  if (!call_.payload.empty()) std::memcpy(ping + 1, call_.payload.data(), call_.payload.size());
  ping->stamp = stamp_ = mwbench::now_ns();
  publisher_.publish(chunk);
  if (!await_pong()) {
    throw std::runtime_error("no pong for ping " + std::to_string(seq_) + " on " +
                             endpoint_.pong_name() + " within " + seconds_text(call_.timeout_s) +
                             " s (--timeout)");
  }
}

bool Client::await_pong() {
  mwbench::common::SpinTimeout spinning(call_.timeout_ns);
  for (;;) {
    const auto taken = subscriber_.take();
    if (!taken.has_error()) {
      const Message pong = *static_cast<const Message*>(taken.value());
      subscriber_.release(taken.value());
      if (pong.seq < seq_) continue;  // a late answer to an earlier ping
      check_pong(pong);
      return true;
    }
    if (taken.get_error() != iox::popo::ChunkReceiveResult::NO_CHUNK_AVAILABLE) {
      throw std::runtime_error(std::string("take (pong): ") +
                               iox::popo::asStringLiteral(taken.get_error()));
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
