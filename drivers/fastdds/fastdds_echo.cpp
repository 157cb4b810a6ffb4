// The serving end in Fast DDS's API: entities, take, write and WaitSet.
#include "fastdds_echo.hpp"

#include <stdexcept>

namespace fastdds_driver {

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : PingEcho(wait, {payload_bytes, verify}), participant_(participant) {
  ping_.payload().reserve(payload_bytes);  // taking a ping of this size allocates nothing
  active_.reserve(4);
  writer_ = check(participant.publisher()->create_datawriter(participant.pong_topic(),
                                                             participant.writer_qos(), nullptr),
                  "create_datawriter (pong)");
  reader_ =
      create_reader(participant.subscriber(), participant.ping_topic(), participant.reader_qos(),
                    answers_in_listener(wait) ? this : nullptr, "create_datareader (ping)");
  check(waitset_.attach_condition(guard_), "attach_condition (guard)");
  if (wait == Wait::waitset) {
    condition_ = attach_reader(waitset_, reader_, "attach_condition (ping)");
  }
}

Echo::~Echo() {
  waitset_.detach_condition(guard_);
  delete_endpoints(participant_.subscriber(), reader_, condition_, waitset_,
                   participant_.publisher(), writer_);
}

bool Echo::take_ping(mwbench::common::PingView& ping) {
  if (!take_valid(reader_, ping_, info_, "DataReader::take_next_sample (ping)")) return false;
  const std::vector<std::uint8_t>& payload = ping_.payload();
  ping = {ping_.seq(), ping_.stamp(), payload.data(), payload.size()};
  return true;
}

void Echo::send_pong(const mwbench::common::PingStamp& pong) {
  pong_.seq(pong.seq);
  pong_.stamp(pong.stamp);
  pong_.status(static_cast<std::uint8_t>(pong.status));
  if (!writer_->write(&pong_)) throw std::runtime_error("DataWriter::write (pong) failed");
}

bool Echo::pong_reader_matched() noexcept {
  dds::PublicationMatchedStatus matched;
  return writer_->get_publication_matched_status(matched) == ReturnCode::RETCODE_OK &&
         matched.current_count > 0;
}

bool Echo::pongs_acknowledged() noexcept {
  return writer_->wait_for_acknowledgments(eprosima::fastrtps::Duration_t(0, 0)) ==
         ReturnCode::RETCODE_OK;
}

void Echo::wait_for_pings(bool refused) {
  const ReturnCode ret =
      waitset_.wait(active_, refused ? eprosima::fastrtps::Duration_t(0, 100'000'000)
                                     : eprosima::fastrtps::c_TimeInfinite);
  if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (ping)");
  // The guard is rung once by a refusal, to start these checks; stop() sets
  // stop_ before it rings, so a reset cannot lose a stop.
  if (!stopped()) guard_.set_trigger_value(false);
}

void Echo::wake() noexcept { guard_.set_trigger_value(true); }

// Rings the guard once, so that serve() starts checking whether the refusal
// arrived (wait_for_pings() resets it).
void Echo::refused_once() noexcept { guard_.set_trigger_value(true); }

}  // namespace fastdds_driver
