// The serving end: take each ping chunk, publish a pong chunk.
#include "iceoryx_echo.hpp"

#include <stdexcept>

namespace iceoryx {

Echo::Echo(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, bool verify,
           std::uint64_t queue_capacity)
    : wait_(wait),
      check_(payload_bytes, verify),
      subscriber_(service(endpoint, endpoint.ping), subscriber_options(queue_capacity)),
      publisher_(service(endpoint, endpoint.pong), publisher_options()) {
  if (wait == Wait::waitset) {
    waitset_.emplace();
    attach(*waitset_, subscriber_, "ping subscriber", &stop_trigger_);
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
  const auto* payload = reinterpret_cast<const std::uint8_t*>(&ping + 1);
  if (!check_.intact(payload, ping.payload_bytes)) {
    status = kMismatch;
    record_failure("octets: " + check_.mismatch(payload, ping.payload_bytes));
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
