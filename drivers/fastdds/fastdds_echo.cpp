// The serving end: take each ping, write its pong.
#include "fastdds_echo.hpp"

namespace fastdds_driver {

namespace {

constexpr std::uint8_t kIntact = 1;
constexpr std::uint8_t kMismatch = 0;

}  // namespace

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : participant_(participant), wait_(wait), payload_bytes_(payload_bytes), verify_(verify) {
  ping_.payload().reserve(payload_bytes);  // taking a ping of this size allocates nothing
  active_.reserve(4);
  writer_ = check(
      participant.publisher()->create_datawriter(participant.pong_topic(), writer_qos(), nullptr),
      "create_datawriter (pong)");
  reader_ = check(
      participant.subscriber()->create_datareader(
          participant.ping_topic(), reader_qos(), wait == Wait::listener ? this : nullptr,
          wait == Wait::listener ? dds::StatusMask::data_available() : dds::StatusMask::none()),
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
  while (!stop_.load(std::memory_order_relaxed)) {
    if (wait_ == Wait::poll) {
      answer_all();
    } else {
      const ReturnCode ret = waitset_.wait(active_, eprosima::fastrtps::c_TimeInfinite);
      if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (ping)");
      if (wait_ == Wait::waitset) answer_all();
    }
  }
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
    pong_.status(kIntact);
    if (verify_) {
      const std::vector<std::uint8_t>& payload = ping_.payload();
      const std::size_t length = payload.size();
      std::size_t bad = 0;
      while (bad < length && payload[bad] == pattern_byte(bad)) ++bad;
      if (length != payload_bytes_ || bad != length) {
        pong_.status(kMismatch);
        record_failure("octets: payload mismatch at byte " + std::to_string(bad) + " of " +
                       std::to_string(length) + " (expected " + std::to_string(payload_bytes_) +
                       " bytes; verify=1)");
      }
    }
    if (!writer_->write(&pong_)) record_failure("DataWriter::write (pong) failed");
  }
}

void Echo::record_failure(std::string message) noexcept {
  {
    const std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = std::move(message);
  }
  stop();
}

}  // namespace fastdds_driver
