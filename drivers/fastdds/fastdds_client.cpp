// The client end in Fast DDS's API: entities, write, take and WaitSet.
#include "fastdds_client.hpp"

#include <stdexcept>

namespace fastdds_driver {

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : PingClient(participant.endpoint(), wait, timeout_s, measurement),
      endpoints_(
          {participant.publisher(), participant.ping_topic(), participant.writer_qos(), "ping"},
          {participant.subscriber(), participant.pong_topic(), participant.reader_qos(), "pong"},
          answers_in_listener(wait) ? this : nullptr, wait == Wait::waitset) {
  auto& payload = ping_.payload();
  payload.resize(payload_bytes);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = pattern_byte(i);
}

bool Client::ping_reader_matched() {
  dds::PublicationMatchedStatus status;
  check(endpoints_.writer()->get_publication_matched_status(status), "publication matched status");
  return status.current_count > 0;
}

bool Client::pong_writer_matched() {
  dds::SubscriptionMatchedStatus status;
  check(endpoints_.reader()->get_subscription_matched_status(status),
        "subscription matched status");
  return status.current_count > 0;
}

void Client::send_ping(const mwbench::common::PingStamp& ping) {
  ping_.seq(ping.seq);
  ping_.stamp(ping.stamp);
  if (!endpoints_.writer()->write(&ping_))
    throw std::runtime_error("DataWriter::write (ping) failed");
}

bool Client::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return endpoints_.wait(timeout.ns);
}

bool Client::take_pong(mwbench::common::PingStamp& pong) {
  if (!take_valid(endpoints_.reader(), pong_, info_, "DataReader::take_next_sample (pong)"))
    return false;
  pong = {pong_.seq(), pong_.stamp(), pong_.status()};
  return true;
}

}  // namespace fastdds_driver
