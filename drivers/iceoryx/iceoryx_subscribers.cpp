// The subscriber threads of a fan-out: take the event, release it, reply.
#include "iceoryx_subscribers.hpp"

#include <chrono>
#include <optional>
#include <stdexcept>

#include "iceoryx_posh/popo/untyped_publisher.hpp"
#include "iceoryx_posh/popo/untyped_subscriber.hpp"
#include "iceoryx_posh/popo/user_trigger.hpp"
#include "iceoryx_posh/popo/wait_set.hpp"

namespace iceoryx {

// One subscriber: its ports, its WaitSet (the has-data state of its event
// subscriber and the stop trigger) and its count, touched by its thread only
// while it serves.
class Subscribers::Subscriber {
 public:
  Subscriber(Subscribers& group, const FanoutEndpoint& endpoint, int number, Wait wait,
             std::size_t payload_bytes, bool verify)
      : group_(group),
        number_(static_cast<std::uint32_t>(number)),
        wait_(wait),
        check_(payload_bytes, verify),
        events_(service(endpoint, endpoint.event), subscriber_options()),
        replies_(service(endpoint, endpoint.reply), publisher_options()) {
    if (wait == Wait::waitset) {
      waitset_.emplace();
      attach(*waitset_, events_, "event subscriber", &stop_trigger_);
    }
  }

  // Until the group stops: waits, then answers every chunk there is.
  void serve() noexcept {
    while (!group_.stop_.load(std::memory_order_relaxed)) {
      if (wait_ == Wait::waitset) waitset_->wait();
      answer_all();
    }
  }

  void wake() noexcept { stop_trigger_.trigger(); }

  // RouDi has taken the subscription in: it waits for an offer or is served.
  bool subscribed() const noexcept {
    const iox::SubscribeState state = events_.getSubscriptionState();
    return state == iox::SubscribeState::SUBSCRIBED || state == iox::SubscribeState::WAIT_FOR_OFFER;
  }

  std::uint64_t received() const noexcept { return received_; }

 private:
  void answer_all() noexcept {
    for (;;) {
      const auto taken = events_.take();
      if (taken.has_error()) {
        if (taken.get_error() != iox::popo::ChunkReceiveResult::NO_CHUNK_AVAILABLE) {
          fail(std::string("take (event): ") + iox::popo::asStringLiteral(taken.get_error()));
        }
        return;
      }
      const auto* chunk = static_cast<const FanoutEvent*>(taken.value());
      const FanoutEvent event = *chunk;
      const bool intact = event.kind != kEvent || payload_intact(*chunk);
      // Released before the reply: when the publisher has every reply, no
      // subscriber holds the event's chunk any more.
      events_.release(taken.value());
      if (event.kind == kProbe) {
        reply(event.number, kHello);
      } else if (reply(event.number, intact ? kReply : kBrokenPayload)) {
        ++received_;
      }
    }
  }

  // `event` is the chunk: its payload follows it.
  bool payload_intact(const FanoutEvent& event) noexcept {
    const auto* payload = reinterpret_cast<const std::uint8_t*>(&event + 1);
    if (check_.intact(payload, event.payload_bytes)) return true;
    fail("event " + std::to_string(event.number) + ": " +
         check_.mismatch(payload, event.payload_bytes));
    return false;
  }

  // The reply (or hello) to `number`; false if no chunk could be loaned.
  bool reply(std::uint64_t number, std::uint32_t kind) noexcept {
    bool sent = false;
    replies_.loan(sizeof(FanoutReply), alignof(FanoutReply))
        .and_then([&](void* chunk) {
          *static_cast<FanoutReply*>(chunk) = FanoutReply{number, number_, kind};
          replies_.publish(chunk);
          sent = true;
        })
        .or_else([this](iox::popo::AllocationError error) {
          fail(std::string("loan (reply): ") + iox::popo::asStringLiteral(error));
        });
    return sent;
  }

  void fail(std::string message) noexcept {
    group_.record_failure("subscriber " + std::to_string(number_) + ": " + std::move(message));
  }

  Subscribers& group_;
  const std::uint32_t number_;
  const Wait wait_;
  const mwbench::common::PayloadCheck check_;  // verify=1
  iox::popo::UntypedSubscriber events_;
  iox::popo::UntypedPublisher replies_;
  iox::popo::UserTrigger stop_trigger_;
  std::optional<iox::popo::WaitSet<2>> waitset_;  // wait=waitset
  std::uint64_t received_ = 0;
};

Subscribers::Subscribers(const FanoutEndpoint& endpoint, Wait wait, std::size_t payload_bytes,
                         bool verify) {
  subscribers_.reserve(static_cast<std::size_t>(endpoint.count));
  for (int i = 0; i < endpoint.count; ++i) {
    subscribers_.push_back(std::make_unique<Subscriber>(*this, endpoint, endpoint.first + i, wait,
                                                        payload_bytes, verify));
  }
}

Subscribers::~Subscribers() {
  stop();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void Subscribers::await_subscribed(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (const auto& s : subscribers_) {
    while (!s->subscribed()) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("RouDi took no subscription in within " + seconds_text(timeout_s) +
                                 " s (--timeout)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

void Subscribers::start() {
  threads_.reserve(subscribers_.size());
  for (const auto& s : subscribers_) threads_.emplace_back([&s] { s->serve(); });
}

void Subscribers::stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  for (const auto& s : subscribers_) s->wake();
}

std::vector<std::uint64_t> Subscribers::join() {
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  if (std::string f = failure(); !f.empty()) throw std::runtime_error(f);
  std::vector<std::uint64_t> received;
  received.reserve(subscribers_.size());
  for (const auto& s : subscribers_) received.push_back(s->received());
  return received;
}

std::string Subscribers::failure() const {
  const std::lock_guard lock(failure_mutex_);
  return failure_;
}

void Subscribers::record_failure(std::string message) noexcept {
  {
    const std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = std::move(message);
  }
  stop();
}

}  // namespace iceoryx
