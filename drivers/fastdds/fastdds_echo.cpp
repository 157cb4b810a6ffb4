// The serving end in Fast DDS's API: entities, take, write and WaitSet.
#include "fastdds_echo.hpp"

#include <stdexcept>

namespace fastdds_driver {

namespace {

// A ping sample whose payload can take `payload_bytes` without allocating.
mwbench_fastdds::Sample sample_for(std::size_t payload_bytes) {
  mwbench_fastdds::Sample sample;
  sample.payload().reserve(payload_bytes);
  return sample;
}

}  // namespace

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : PingEcho(wait, {payload_bytes, verify}),
      ping_(sample_for(payload_bytes)),  // before the reader: a ping may come at once
      endpoints_(
          {participant.publisher(), participant.pong_topic(), participant.writer_qos(), "pong"},
          {participant.subscriber(), participant.ping_topic(), participant.reader_qos(), "ping"},
          answers_in_listener(wait) ? this : nullptr, wait == Wait::waitset) {
  check(endpoints_.waitset().attach_condition(guard_), "attach_condition (guard)");
}

Echo::~Echo() { endpoints_.waitset().detach_condition(guard_); }

bool Echo::take_ping(mwbench::common::PingView& ping) {
  if (!take_valid(endpoints_.reader(), ping_, info_, "DataReader::take_next_sample (ping)"))
    return false;
  const std::vector<std::uint8_t>& payload = ping_.payload();
  ping = {ping_.seq(), ping_.stamp(), payload.data(), payload.size()};
  return true;
}

void Echo::send_pong(const mwbench::common::PingStamp& pong) {
  pong_.seq(pong.seq);
  pong_.stamp(pong.stamp);
  pong_.status(static_cast<std::uint8_t>(pong.status));
  if (!endpoints_.writer()->write(&pong_))
    throw std::runtime_error("DataWriter::write (pong) failed");
}

bool Echo::pong_reader_matched() noexcept {
  dds::PublicationMatchedStatus matched;
  return endpoints_.writer()->get_publication_matched_status(matched) == ReturnCode::RETCODE_OK &&
         matched.current_count > 0;
}

bool Echo::pongs_acknowledged() noexcept {
  return endpoints_.writer()->wait_for_acknowledgments(eprosima::fastrtps::Duration_t(0, 0)) ==
         ReturnCode::RETCODE_OK;
}

void Echo::wait_for_pings(bool refused) {
  endpoints_.wait(refused ? Duration(0, 100'000'000) : eprosima::fastrtps::c_TimeInfinite);
  // The guard is rung once by a refusal, to start these checks; stop() sets
  // stop_ before it rings, so a reset cannot lose a stop.
  if (!stopped()) guard_.set_trigger_value(false);
}

void Echo::wake() noexcept { guard_.set_trigger_value(true); }

// Rings the guard once, so that serve() starts checking whether the refusal
// arrived (wait_for_pings() resets it).
void Echo::refused_once() noexcept { guard_.set_trigger_value(true); }

}  // namespace fastdds_driver
