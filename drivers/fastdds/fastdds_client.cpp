// The client end in Fast DDS's API: entities, write, take and WaitSet.
#include "fastdds_client.hpp"

#include <stdexcept>

namespace fastdds_driver {

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : PingClient(participant.endpoint(), wait, timeout_s, measurement), participant_(participant) {
  auto& payload = ping_.payload();
  payload.resize(payload_bytes);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = pattern_byte(i);
  active_.reserve(4);

  writer_ = check(participant.publisher()->create_datawriter(participant.ping_topic(),
                                                             participant.writer_qos(), nullptr),
                  "create_datawriter (ping)");
  reader_ =
      create_reader(participant.subscriber(), participant.pong_topic(), participant.reader_qos(),
                    answers_in_listener(wait) ? this : nullptr, "create_datareader (pong)");
  if (wait == Wait::waitset) {
    condition_ = attach_reader(waitset_, reader_, "attach_condition (pong)");
  }
}

Client::~Client() {
  delete_endpoints(participant_.subscriber(), reader_, condition_, waitset_,
                   participant_.publisher(), writer_);
}

bool Client::ping_reader_matched() {
  dds::PublicationMatchedStatus status;
  check(writer_->get_publication_matched_status(status), "publication matched status");
  return status.current_count > 0;
}

bool Client::pong_writer_matched() {
  dds::SubscriptionMatchedStatus status;
  check(reader_->get_subscription_matched_status(status), "subscription matched status");
  return status.current_count > 0;
}

void Client::send_ping(const mwbench::common::PingStamp& ping) {
  ping_.seq(ping.seq);
  ping_.stamp(ping.stamp);
  if (!writer_->write(&ping_)) throw std::runtime_error("DataWriter::write (ping) failed");
}

bool Client::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return wait_in(waitset_, active_, timeout.ns, "WaitSet::wait (pong)");
}

bool Client::take_pong(mwbench::common::PingStamp& pong) {
  if (!take_valid(reader_, pong_, info_, "DataReader::take_next_sample (pong)")) return false;
  pong = {pong_.seq(), pong_.stamp(), pong_.status()};
  return true;
}

}  // namespace fastdds_driver
