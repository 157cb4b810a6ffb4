// The publisher: write an event, gather its N replies.
#include "fastdds_publisher.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "common/fanout_handshake.hpp"
#include "common/fanout_reply.hpp"
#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace fastdds_driver {

namespace {

std::string seconds(double s) {
  std::string text = std::to_string(s);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
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
      timeout_ts_{static_cast<time_t>(timeout_ns_ / 1'000'000'000),
                  static_cast<long>(timeout_ns_ % 1'000'000'000)},
      timeout_duration_(static_cast<std::int32_t>(timeout_ns_ / 1'000'000'000),
                        static_cast<std::uint32_t>(timeout_ns_ % 1'000'000'000)),
      tally_(subscribers) {
  auto& payload = event_.payload();
  payload.resize(payload_bytes);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = pattern_byte(i);
  active_.reserve(4);

  writer_ = check(
      participant.publisher()->create_datawriter(participant.event_topic(), writer_qos(), nullptr),
      "create_datawriter (event)");
  reader_ = check(
      participant.subscriber()->create_datareader(
          participant.reply_topic(), reply_reader_qos(), wait == Wait::listener ? this : nullptr,
          wait == Wait::listener ? dds::StatusMask::data_available() : dds::StatusMask::none()),
      "create_datareader (reply)");
  if (wait == Wait::waitset) {
    condition_ = check(reader_->create_readcondition(dds::ANY_SAMPLE_STATE, dds::ANY_VIEW_STATE,
                                                     dds::ANY_INSTANCE_STATE),
                       "create_readcondition (reply)");
    check(waitset_.attach_condition(*condition_), "attach_condition (reply)");
  }
}

Publisher::~Publisher() {
  if (condition_ != nullptr) {
    waitset_.detach_condition(*condition_);
    reader_->delete_readcondition(condition_);
  }
  // Deleting the reader waits for a listener that is running.
  if (reader_ != nullptr) participant_.subscriber()->delete_datareader(reader_);
  if (writer_ != nullptr) participant_.publisher()->delete_datawriter(writer_);
}

void Publisher::on_data_available(dds::DataReader*) { doorbell_.ring(); }

void Publisher::connect() {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s_);
  const int n = tally_.subscribers();
  dds::PublicationMatchedStatus published;
  dds::SubscriptionMatchedStatus subscribed;
  const auto matched = [&] {
    check(writer_->get_publication_matched_status(published), "publication matched status");
    check(reader_->get_subscription_matched_status(subscribed), "subscription matched status");
    return published.current_count >= n && subscribed.current_count >= n;
  };
  // Matched here does not mean matched there: until a subscriber has
  // discovered the reply reader, its replies go nowhere. So probe until each
  // has answered: every 100 ms, and at once when the last match comes in.
  // Probes that go nowhere cost nothing, and those answered name the
  // subscribers missing when the time is up.
  mwbench::common::Handshake handshake(n);
  bool all_matched = false;
  auto next_probe = std::chrono::steady_clock::now();
  while (!handshake.complete() && std::chrono::steady_clock::now() < deadline) {
    const auto now = std::chrono::steady_clock::now();
    if (!all_matched && matched()) {
      all_matched = true;
      next_probe = now;
    }
    if (now >= next_probe) {
      event_.number(0);
      if (!writer_->write(&event_)) throw std::runtime_error("DataWriter::write (probe) failed");
      next_probe = now + kProbeInterval;
    }
    for (;;) {
      const ReturnCode ret = reader_->take_next_sample(&reply_, &info_);
      if (ret == ReturnCode::RETCODE_NO_DATA) break;
      check(ret, "DataReader::take_next_sample (reply)");
      if (info_.valid_data && reply_.event_number() == 0) handshake.answered(reply_.subscriber());
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
  event_.number(++seq_);
  tally_.expect(seq_);
  if (!writer_->write(&event_)) {
    measurement_.fail("DataWriter::write (event) failed");
    return;
  }
  mwbench::common::SpinTimeout spinning(timeout_ns_);
  for (;;) {
    bool timed_out = false;
    switch (wait_) {
      case Wait::waitset: {
        const ReturnCode ret = waitset_.wait(active_, timeout_duration_);
        if (ret == ReturnCode::RETCODE_TIMEOUT) {
          timed_out = true;
        } else if (ret != ReturnCode::RETCODE_OK) {
          measurement_.fail("WaitSet::wait (reply) failed, return code " + std::to_string(ret()));
          return;
        }
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
  for (;;) {
    const ReturnCode ret = reader_->take_next_sample(&reply_, &info_);
    if (ret == ReturnCode::RETCODE_NO_DATA) return false;
    if (ret != ReturnCode::RETCODE_OK) {
      measurement_.fail("DataReader::take_next_sample (reply) failed, return code " +
                        std::to_string(ret()));
      return true;
    }
    if (!info_.valid_data) continue;           // a state change (a subscriber's writer went away)
    if (reply_.event_number() == 0) continue;  // a late answer to a probe of connect()
    if (mwbench::common::settle_reply(tally_, measurement_, reply_.subscriber(),
                                      reply_.event_number(), reply_.status() == 1)) {
      return true;
    }
  }
}

}  // namespace fastdds_driver
