// The serving end: take each ping chunk, publish a pong chunk.
#include "iceoryx_echo.hpp"

#include <stdexcept>

namespace iceoryx {

Echo::Echo(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, bool verify)
    : wait_(wait),
      payload_bytes_(payload_bytes),
      verify_(verify),
      subscriber_(service(endpoint, endpoint.ping), subscriber_options()),
      publisher_(service(endpoint, endpoint.pong), publisher_options()) {
  if (wait == Wait::waitset) {
    waitset_.emplace();
    waitset_->attachState(subscriber_, iox::popo::SubscriberState::HAS_DATA).or_else([](auto) {
      throw std::runtime_error("WaitSet: cannot attach the ping subscriber");
    });
    waitset_->attachEvent(stop_trigger_).or_else([](auto) {
      throw std::runtime_error("WaitSet: cannot attach the stop trigger");
    });
  }
}

void Echo::serve() {
  while (!stop_.load(std::memory_order_relaxed)) {
    if (wait_ == Wait::waitset) waitset_->wait();
    answer_all();
  }
}

void Echo::stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  stop_trigger_.trigger();
}

std::string Echo::failure() const {
  const std::lock_guard lock(failure_mutex_);
  return failure_;
}

void Echo::answer_all() noexcept {
  for (;;) {
    const auto taken = subscriber_.take();
    if (taken.has_error()) {
      if (taken.get_error() != iox::popo::ChunkReceiveResult::NO_CHUNK_AVAILABLE) {
        record_failure(std::string("take (ping): ") +
                       iox::popo::asStringLiteral(taken.get_error()));
      }
      return;
    }
    answer(*static_cast<const Message*>(taken.value()));
    subscriber_.release(taken.value());
  }
}

void Echo::answer(const Message& ping) noexcept {
  std::uint32_t status = kIntact;
  if (verify_) {
    const auto* payload = reinterpret_cast<const std::uint8_t*>(&ping + 1);
    const std::size_t length = ping.payload_bytes;
    std::size_t bad = 0;
    while (bad < length && bad < payload_bytes_ && payload[bad] == pattern_byte(bad)) ++bad;
    if (length != payload_bytes_ || bad != length) {
      status = kMismatch;
      record_failure("octets: payload mismatch at byte " + std::to_string(bad) + " of " +
                     std::to_string(length) + " (expected " + std::to_string(payload_bytes_) +
                     " bytes; verify=1)");
    }
  }
  publisher_.loan(sizeof(Message), alignof(Message))
      .and_then([&](void* chunk) {
        auto* pong = static_cast<Message*>(chunk);
        *pong = Message{ping.seq, ping.stamp, status, 0};
        publisher_.publish(chunk);
      })
      .or_else([this](iox::popo::AllocationError error) {
        record_failure(std::string("loan (pong): ") + iox::popo::asStringLiteral(error));
      });
}

void Echo::record_failure(std::string message) noexcept {
  {
    const std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = std::move(message);
  }
  stop();
}

}  // namespace iceoryx
