// The fan-out's publisher: the handshake, then one event and its N replies
// per call.
#include "iceoryx_publisher.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace iceoryx {

namespace {

constexpr auto kProbePeriod = std::chrono::milliseconds(10);

}  // namespace

Publisher::Publisher(const FanoutEndpoint& endpoint, Wait wait, std::size_t payload_bytes,
                     double timeout_s, mwbench::Measurement& measurement)
    : endpoint_(endpoint),
      call_(wait, payload_bytes, timeout_s, measurement),
      ports_(std::make_unique<Ports>(endpoint, wait)),
      events_(ports_->events),
      replies_(ports_->replies),
      waitset_(ports_->waitset),
      tally_(endpoint.count) {}

Publisher::Ports::Ports(const FanoutEndpoint& endpoint, Wait wait)
    : events(service(endpoint, endpoint.event), publisher_options()),
      replies(service(endpoint, endpoint.reply), reply_subscriber_options()) {
  if (wait == Wait::waitset) {
    waitset.emplace();
    waitset->attachState(replies, iox::popo::SubscriberState::HAS_DATA).or_else([](auto) {
      throw std::runtime_error("WaitSet: cannot attach the reply subscriber");
    });
  }
}

Publisher::~Publisher() {
  // A subscriber that stopped answering may have been killed while it
  // pushed a reply into replies' queue, holding that queue's lock, which
  // lives in shared memory and which iceoryx 2.0.3 does not make robust:
  // detaching replies from the WaitSet would wait for that lock for ever
  // (seen in tests that SIGKILL a subscriber process). So the ports are left
  // as they are; the process ends right after, and RouDi reclaims them.
  if (!lost_subscriber_) return;
  Ports* abandoned = ports_.release();
#if defined(__SANITIZE_ADDRESS__)
  __lsan_ignore_object(abandoned);  // left on purpose, not a leak to report
#else
  static_cast<void>(abandoned);
#endif
}

void Publisher::connect() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(call_.timeout_s);
  const std::string within = " within " + seconds_text(call_.timeout_s) + " s (--timeout)";
  while (!events_.hasSubscribers()) {
    if (Clock::now() > deadline) {
      throw std::runtime_error("no subscriber of " + endpoint_.event_name() + within +
                               " (are the subscriber processes running?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Each probe reaches the subscribers connected by then; one that connects
  // later, or whose hello went out before its reply publisher was connected
  // to replies_, answers a later probe.
  std::vector<bool> heard(static_cast<std::size_t>(endpoint_.count), false);
  int missing = endpoint_.count;
  std::uint64_t probe = 0;
  auto next_probe = Clock::now();
  while (missing > 0) {
    const auto now = Clock::now();
    if (now > deadline) break;
    if (now >= next_probe) {
      events_.loan(sizeof(FanoutEvent), alignof(FanoutEvent))
          .and_then([&](void* chunk) {
            *static_cast<FanoutEvent*>(chunk) = FanoutEvent{++probe, kProbe, 0};
            events_.publish(chunk);
          })
          .or_else([](iox::popo::AllocationError error) {
            throw std::runtime_error(std::string("loan (probe): ") +
                                     iox::popo::asStringLiteral(error));
          });
      next_probe = now + kProbePeriod;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    missing = take_hellos(heard, missing);
  }
  if (missing == 0) return;
  std::string list;
  for (std::size_t s = 0; s < heard.size(); ++s) {
    if (!heard[s]) list += (list.empty() ? "" : ", ") + std::to_string(s);
  }
  throw std::runtime_error(std::to_string(missing) + " of " + std::to_string(endpoint_.count) +
                           " subscribers of " + endpoint_.event_name() +
                           " did not answer the handshake" + within + ": " + list);
}

int Publisher::take_hellos(std::vector<bool>& heard, int missing) {
  for (;;) {
    const auto taken = replies_.take();
    if (taken.has_error()) return missing;
    const FanoutReply reply = *static_cast<const FanoutReply*>(taken.value());
    replies_.release(taken.value());
    if (reply.kind == kHello && reply.subscriber < heard.size() && !heard[reply.subscriber]) {
      heard[reply.subscriber] = true;
      --missing;
    }
  }
}

void Publisher::call() {
  if (failed_) return;
  const auto size = static_cast<std::uint32_t>(sizeof(FanoutEvent) + call_.payload.size());
  void* chunk = loan_chunk(events_, size, alignof(FanoutEvent));
  auto* event = static_cast<FanoutEvent*>(chunk);
  *event = FanoutEvent{++event_, kEvent, static_cast<std::uint32_t>(call_.payload.size())};
  if (!call_.payload.empty()) std::memcpy(event + 1, call_.payload.data(), call_.payload.size());
  tally_.expect(event_);
  events_.publish(chunk);
  if (!await_replies()) {
    lost_subscriber_ = true;
    fail(tally_.describe_missing() + " within " + seconds_text(call_.timeout_s) + " s (--timeout)");
  }
}

bool Publisher::await_replies() {
  mwbench::common::SpinTimeout spinning(call_.timeout_ns);
  std::uint64_t empty_since = 0;  // the first time timedWait() returned nothing
  for (;;) {
    const auto taken = replies_.take();
    if (!taken.has_error()) {
      const FanoutReply reply = *static_cast<const FanoutReply*>(taken.value());
      replies_.release(taken.value());
      if (reply.kind == kHello) continue;  // a late answer to a handshake probe
      if (!count(reply)) return true;
      if (tally_.missing() == 0) return true;
      continue;
    }
    if (taken.get_error() != iox::popo::ChunkReceiveResult::NO_CHUNK_AVAILABLE) {
      throw std::runtime_error(std::string("take (reply): ") +
                               iox::popo::asStringLiteral(taken.get_error()));
    }
    if (call_.wait == Wait::waitset) {
      // timedWait() may return nothing early (a semaphore post left over
      // from a notification already seen), so an empty return only starts
      // the clock, and a later one past --timeout ends the wait: a silent
      // subscriber fails the call within one to two --timeout, and a reply
      // in time costs no clock read.
      if (waitset_->timedWait(iox::units::Duration::fromNanoseconds(call_.timeout_ns)).empty()) {
        const std::uint64_t now = mwbench::now_ns();
        if (empty_since == 0) {
          empty_since = now;
        } else if (now - empty_since >= static_cast<std::uint64_t>(call_.timeout_ns)) {
          return false;
        }
      }
    } else if (spinning.expired()) {
      return false;
    }
  }
}

bool Publisher::count(const FanoutReply& reply) {
  const int subscriber = static_cast<int>(reply.subscriber);
  if (tally_.count(subscriber, reply.event) == mwbench::ReplyTally::Reply::unexpected) {
    fail(tally_.describe(subscriber, reply.event));
    return false;
  }
  if (reply.kind == kBrokenPayload) {
    fail("fanout: subscriber " + std::to_string(subscriber) +
         " found a payload mismatch in event " + std::to_string(reply.event) + " (verify=1)");
    return false;
  }
  return true;
}

void Publisher::fail(std::string message) {
  failed_ = true;
  call_.measurement.fail(std::move(message));
}

}  // namespace iceoryx
