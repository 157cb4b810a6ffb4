// The serving end: take each ping, write its pong.
#include "cyclonedds_echo.hpp"

namespace cyclonedds {

namespace {

constexpr std::uint8_t kIntact = 1;
constexpr std::uint8_t kMismatch = 0;

}  // namespace

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : wait_(wait), payload_bytes_(payload_bytes), verify_(verify), ping_(payload_bytes) {
  const EndpointQos qos;
  writer_ =
      check(dds_create_writer(participant.handle(), participant.pong_topic(), qos.get(), nullptr),
            "dds_create_writer (pong)");
  dds_listener_t* listener = nullptr;
  if (answers_in_listener(wait)) {
    listener = dds_create_listener(this);
    dds_lset_data_available(listener, &Echo::on_data_available);
  }
  reader_ = dds_create_reader(participant.handle(), participant.ping_topic(), qos.get(), listener);
  if (listener != nullptr) dds_delete_listener(listener);  // the reader keeps a copy
  check(reader_, "dds_create_reader (ping)");

  waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
  guard_ = check(dds_create_guardcondition(participant.handle()), "dds_create_guardcondition");
  check(dds_waitset_attach(waitset_, guard_, 0), "dds_waitset_attach (guard)");
  if (wait == Wait::waitset) {
    const dds_entity_t condition =
        check(dds_create_readcondition(reader_, DDS_ANY_STATE), "dds_create_readcondition");
    check(dds_waitset_attach(waitset_, condition, 0), "dds_waitset_attach (ping)");
  }
}

Echo::~Echo() {
  if (reader_ > 0) dds_delete(reader_);
  if (waitset_ > 0) dds_delete(waitset_);
  if (guard_ > 0) dds_delete(guard_);
  if (writer_ > 0) dds_delete(writer_);
}

void Echo::serve() {
  while (!stop_.load(std::memory_order_relaxed) && !refusal_delivered()) {
    if (wait_ == Wait::poll) {
      answer_all();
    } else {
      // After a mismatch, wake up now and then to see whether to end.
      const dds_duration_t timeout =
          failed_at_.load(std::memory_order_relaxed) != 0 ? DDS_MSECS(100) : DDS_INFINITY;
      check(dds_waitset_wait(waitset_, nullptr, 0, timeout), "dds_waitset_wait");
      if (wait_ == Wait::waitset) answer_all();
    }
  }
}

bool Echo::refusal_delivered() const noexcept {
  const dds_time_t failed_at = failed_at_.load(std::memory_order_relaxed);
  if (failed_at == 0) return false;
  if (dds_time() - failed_at > kLinger) return true;
  return refused_to_reader_.load(std::memory_order_relaxed) &&
         dds_wait_for_acks(writer_, 0) == DDS_RETCODE_OK;
}

void Echo::stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  dds_set_guardcondition(guard_, true);
}

std::string Echo::failure() const {
  const std::lock_guard lock(failure_mutex_);
  return failure_;
}

void Echo::on_data_available(dds_entity_t, void* echo) { static_cast<Echo*>(echo)->answer_all(); }

void Echo::answer_all() noexcept {
  void* into = &ping_.get();
  for (;;) {
    const dds_return_t taken = dds_take(reader_, &into, &info_, 1, 1);
    if (taken < 0) {
      record_failure(std::string("dds_take (ping): ") + dds_strretcode(taken));
      return;
    }
    if (taken == 0) return;
    if (!info_.valid_data) continue;
    const mwbench_dds_Sample& ping = ping_.get();
    pong_.seq = ping.seq;
    pong_.stamp = ping.stamp;
    const bool refused = verify_ && !intact(ping);
    pong_.status = refused ? kMismatch : kIntact;
    dds_publication_matched_status_t matched{};
    const bool to_reader =
        refused && dds_get_publication_matched_status(writer_, &matched) == DDS_RETCODE_OK &&
        matched.current_count > 0;
    const dds_return_t written = dds_write(writer_, &pong_);
    if (written < 0) record_failure(std::string("dds_write (pong): ") + dds_strretcode(written));
    if (refused) {
      if (to_reader) refused_to_reader_.store(true, std::memory_order_relaxed);
      record_failure(mismatch(ping), /*refused=*/true);
    }
  }
}

std::size_t Echo::first_bad_byte(const mwbench_dds_Sample& ping) noexcept {
  const std::size_t length = ping.payload._length;
  std::size_t bad = 0;
  while (bad < length && ping.payload._buffer[bad] == pattern_byte(bad)) ++bad;
  return bad;
}

bool Echo::intact(const mwbench_dds_Sample& ping) const noexcept {
  return ping.payload._length == payload_bytes_ && first_bad_byte(ping) == payload_bytes_;
}

std::string Echo::mismatch(const mwbench_dds_Sample& ping) const {
  const std::size_t length = ping.payload._length;
  const std::size_t bad = first_bad_byte(ping);
  return "octets: payload mismatch at byte " + std::to_string(bad) + " of " +
         std::to_string(length) + " (expected " + std::to_string(payload_bytes_) +
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
    dds_time_t none = 0;
    failed_at_.compare_exchange_strong(none, dds_time(), std::memory_order_relaxed);
  }
}

}  // namespace cyclonedds
