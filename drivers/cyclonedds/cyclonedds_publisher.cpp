// The publisher: write an event, gather its N replies.
#include "cyclonedds_publisher.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "common/fanout_handshake.hpp"
#include "common/fanout_reply.hpp"
#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace cyclonedds {

namespace {

std::string seconds(double s) {
  std::string text = std::to_string(s);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

timespec to_timespec(std::int64_t ns) noexcept {
  return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// How often connect() writes a probe while subscribers are missing.
constexpr auto kProbeInterval = std::chrono::milliseconds(100);

}  // namespace

Publisher::Publisher(FanoutParticipant& participant, Wait wait, int subscribers,
                     std::size_t payload_bytes, double timeout_s, mwbench::Measurement& measurement)
    : participant_(participant),
      wait_(wait),
      measurement_(measurement),
      timeout_s_(timeout_s),
      timeout_ns_(static_cast<std::int64_t>(timeout_s * 1e9)),
      timeout_ts_(to_timespec(timeout_ns_)),
      payload_(payload_bytes),
      tally_(subscribers) {
  for (std::size_t i = 0; i < payload_.size(); ++i) payload_[i] = pattern_byte(i);
  event_.payload._buffer = payload_.data();
  event_.payload._length = event_.payload._maximum = static_cast<std::uint32_t>(payload_.size());
  event_.payload._release = false;

  writer_ = check(dds_create_writer(participant.publisher(), participant.event_topic(),
                                    EndpointQos().get(), nullptr),
                  "dds_create_writer (event)");
  dds_listener_t* listener = nullptr;
  if (wait == Wait::listener) {
    listener = dds_create_listener(&doorbell_);
    dds_lset_data_available(listener, &Publisher::on_data_available);
  }
  reader_ = dds_create_reader(participant.subscriber(), participant.reply_topic(),
                              ReplyReaderQos().get(), listener);
  if (listener != nullptr) dds_delete_listener(listener);  // the reader keeps a copy
  check(reader_, "dds_create_reader (reply)");
  if (wait == Wait::waitset) {
    waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
    const dds_entity_t condition =
        check(dds_create_readcondition(reader_, DDS_ANY_STATE), "dds_create_readcondition");
    check(dds_waitset_attach(waitset_, condition, 0), "dds_waitset_attach");
  }
}

Publisher::~Publisher() {
  if (reader_ > 0) dds_delete(reader_);  // its read condition with it
  if (waitset_ > 0) dds_delete(waitset_);
  if (writer_ > 0) dds_delete(writer_);
}

void Publisher::on_data_available(dds_entity_t, void* doorbell) {
  static_cast<mwbench::common::Doorbell*>(doorbell)->ring();
}

void Publisher::connect() {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s_);
  const auto n = static_cast<std::uint32_t>(tally_.subscribers());
  dds_publication_matched_status_t published{};
  dds_subscription_matched_status_t subscribed{};
  const auto matched = [&] {
    check(dds_get_publication_matched_status(writer_, &published), "publication matched status");
    check(dds_get_subscription_matched_status(reader_, &subscribed), "subscription matched status");
    return published.current_count >= n && subscribed.current_count >= n;
  };
  // Matched here does not mean matched there: until a subscriber has
  // discovered the reply reader, its replies go nowhere. So probe until each
  // has answered: every 100 ms, and at once when the last match comes in.
  // Probes that go nowhere cost nothing, and those answered name the
  // subscribers missing when the time is up.
  mwbench::common::Handshake handshake(tally_.subscribers());
  bool all_matched = false;
  auto next_probe = std::chrono::steady_clock::now();
  void* into = &reply_;
  while (!handshake.complete() && std::chrono::steady_clock::now() < deadline) {
    const auto now = std::chrono::steady_clock::now();
    if (!all_matched && matched()) {
      all_matched = true;
      next_probe = now;
    }
    if (now >= next_probe) {
      event_.number = 0;
      check(dds_write(writer_, &event_), "dds_write (probe)");
      next_probe = now + kProbeInterval;
    }
    while (check(dds_take(reader_, &into, &info_, 1, 1), "dds_take (reply)") > 0) {
      if (info_.valid_data && reply_.event_number == 0) handshake.answered(reply_.subscriber);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (handshake.complete()) return;
  matched();  // the counts for the message
  std::string partitions;
  for (const std::string& p : participant_.partitions()) {
    partitions += (partitions.empty() ? "" : ", ") + p;
  }
  throw std::runtime_error(
      handshake.describe_missing() + " after " + seconds(timeout_s_) +
      " s: the event writer matched " + std::to_string(published.current_count) + " of " +
      std::to_string(n) + " readers, the reply reader " + std::to_string(subscribed.current_count) +
      " of " + std::to_string(n) + " writers (domain " + std::to_string(participant_.domain()) +
      ", partitions " + partitions + "; are the subscriber processes running?)");
}

void Publisher::call() {
  event_.number = ++seq_;
  tally_.expect(seq_);
  if (const dds_return_t ret = dds_write(writer_, &event_); ret < 0) {
    measurement_.fail(std::string("dds_write (event): ") + dds_strretcode(ret));
    return;
  }
  mwbench::common::SpinTimeout spinning(timeout_ns_);
  for (;;) {
    bool timed_out = false;
    switch (wait_) {
      case Wait::waitset: {
        const dds_return_t ret = dds_waitset_wait(waitset_, nullptr, 0, timeout_ns_);
        if (ret < 0) {
          measurement_.fail(std::string("dds_waitset_wait: ") + dds_strretcode(ret));
          return;
        }
        timed_out = ret == 0;
        break;
      }
      case Wait::listener:
      case Wait::chain:  // refused for fanout (pubsub_settings): the listener's wait
        timed_out = !doorbell_.wait(timeout_ts_);
        break;
      case Wait::poll:
        timed_out = spinning.expired();
        break;
    }
    if (take_replies()) return;
    if (timed_out) {
      measurement_.fail(tally_.describe_missing() + " within " + seconds(timeout_s_) +
                        " s (--timeout)");
      return;
    }
  }
}

bool Publisher::take_replies() {
  void* into = &reply_;
  for (;;) {
    const dds_return_t taken = dds_take(reader_, &into, &info_, 1, 1);
    if (taken < 0) {
      measurement_.fail(std::string("dds_take (reply): ") + dds_strretcode(taken));
      return true;
    }
    if (taken == 0) return false;
    if (!info_.valid_data) continue;         // a state change (a subscriber's writer went away)
    if (reply_.event_number == 0) continue;  // a late answer to a probe of connect()
    if (mwbench::common::settle_reply(tally_, measurement_, reply_.subscriber, reply_.event_number,
                                      reply_.status == 1)) {
      return true;
    }
  }
}

}  // namespace cyclonedds
