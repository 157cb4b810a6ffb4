// The serving end: take each ping, write its pong.
#include "fastdds_echo.hpp"

#include "mwbench/clock.hpp"

namespace fastdds_driver {

namespace {

constexpr std::uint8_t kIntact = 1;
constexpr std::uint8_t kMismatch = 0;

}  // namespace

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : participant_(participant), wait_(wait), payload_bytes_(payload_bytes), verify_(verify) {
  ping_.payload().reserve(payload_bytes);  // taking a ping of this size allocates nothing
  active_.reserve(4);
  writer_ = check(participant.publisher()->create_datawriter(participant.pong_topic(),
                                                             participant.writer_qos(), nullptr),
                  "create_datawriter (pong)");
  reader_ = check(
      participant.subscriber()->create_datareader(
          participant.ping_topic(), participant.reader_qos(),
          answers_in_listener(wait) ? this : nullptr,
          answers_in_listener(wait) ? dds::StatusMask::data_available() : dds::StatusMask::none()),
      "create_datareader (ping)");
  check(waitset_.attach_condition(guard_), "attach_condition (guard)");
  if (wait == Wait::waitset) {
    condition_ = check(reader_->create_readcondition(dds::ANY_SAMPLE_STATE, dds::ANY_VIEW_STATE,
                                                     dds::ANY_INSTANCE_STATE),
                       "create_readcondition (ping)");
    check(waitset_.attach_condition(*condition_), "attach_condition (ping)");
  }
}

Echo::~Echo() {
  if (condition_ != nullptr) {
    waitset_.detach_condition(*condition_);
    reader_->delete_readcondition(condition_);
  }
  waitset_.detach_condition(guard_);
  if (reader_ != nullptr) participant_.subscriber()->delete_datareader(reader_);
  if (writer_ != nullptr) participant_.publisher()->delete_datawriter(writer_);
}

void Echo::serve() {
  while (!stop_.load(std::memory_order_relaxed) && !refusal_delivered()) {
    if (wait_ == Wait::poll) {
      answer_all();
    } else {
      // After a mismatch, wake up now and then to see whether to end.
      const bool refused = failed_at_ns_.load(std::memory_order_relaxed) != 0;
      const ReturnCode ret =
          waitset_.wait(active_, refused ? eprosima::fastrtps::Duration_t(0, 100'000'000)
                                         : eprosima::fastrtps::c_TimeInfinite);
      if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (ping)");
      // The guard is rung once by a refusal, to start these checks; stop() sets
      // stop_ before it rings, so a reset cannot lose a stop.
      if (!stop_.load(std::memory_order_relaxed)) guard_.set_trigger_value(false);
      if (wait_ == Wait::waitset) answer_all();
    }
  }
}

bool Echo::refusal_delivered() noexcept {
  const std::int64_t failed_at = failed_at_ns_.load(std::memory_order_relaxed);
  if (failed_at == 0) return false;
  if (static_cast<double>(static_cast<std::int64_t>(mwbench::now_ns()) - failed_at) >
      kLingerS * 1e9) {
    return true;
  }
  return refused_to_reader_.load(std::memory_order_relaxed) &&
         writer_->wait_for_acknowledgments(eprosima::fastrtps::Duration_t(0, 0)) ==
             ReturnCode::RETCODE_OK;
}

void Echo::stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  guard_.set_trigger_value(true);
}

std::string Echo::failure() const {
  const std::lock_guard lock(failure_mutex_);
  return failure_;
}

void Echo::on_data_available(dds::DataReader*) { answer_all(); }

void Echo::answer_all() noexcept {
  for (;;) {
    const ReturnCode taken = reader_->take_next_sample(&ping_, &info_);
    if (taken == ReturnCode::RETCODE_NO_DATA) return;
    if (taken != ReturnCode::RETCODE_OK) {
      record_failure("DataReader::take_next_sample (ping) failed, return code " +
                     std::to_string(taken()));
      return;
    }
    if (!info_.valid_data) continue;
    pong_.seq(ping_.seq());
    pong_.stamp(ping_.stamp());
    const bool refused = verify_ && !intact(ping_);
    pong_.status(refused ? kMismatch : kIntact);
    dds::PublicationMatchedStatus matched;
    const bool to_reader =
        refused && writer_->get_publication_matched_status(matched) == ReturnCode::RETCODE_OK &&
        matched.current_count > 0;
    if (!writer_->write(&pong_)) record_failure("DataWriter::write (pong) failed");
    if (refused) {
      if (to_reader) refused_to_reader_.store(true, std::memory_order_relaxed);
      record_failure(mismatch(ping_), /*refused=*/true);
    }
  }
}

std::size_t Echo::first_bad_byte(const mwbench_fastdds::Sample& ping) noexcept {
  const std::vector<std::uint8_t>& payload = ping.payload();
  std::size_t bad = 0;
  while (bad < payload.size() && payload[bad] == pattern_byte(bad)) ++bad;
  return bad;
}

bool Echo::intact(const mwbench_fastdds::Sample& ping) const noexcept {
  return ping.payload().size() == payload_bytes_ && first_bad_byte(ping) == payload_bytes_;
}

std::string Echo::mismatch(const mwbench_fastdds::Sample& ping) const {
  return "octets: payload mismatch at byte " + std::to_string(first_bad_byte(ping)) + " of " +
         std::to_string(ping.payload().size()) + " (expected " + std::to_string(payload_bytes_) +
         " bytes; verify=1)";
}

void Echo::record_failure(std::string message, bool refused) noexcept {
  {
    const std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = std::move(message);
  }
  if (!refused) {
    stop();
  } else {
    std::int64_t none = 0;
    failed_at_ns_.compare_exchange_strong(none, static_cast<std::int64_t>(mwbench::now_ns()),
                                          std::memory_order_relaxed);
    guard_.set_trigger_value(true);  // serve() starts checking whether the refusal arrived
  }
}

}  // namespace fastdds_driver
