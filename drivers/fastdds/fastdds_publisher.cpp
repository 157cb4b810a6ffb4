// The publisher in Fast DDS's API: entities, write, take and WaitSet.
#include "fastdds_publisher.hpp"

#include <stdexcept>

namespace fastdds_driver {

Publisher::Publisher(FanoutParticipant& participant, Wait wait, int subscribers,
                     std::size_t payload_bytes, double timeout_s, mwbench::Measurement& measurement)
    : EventPublisher(mwbench::common::fanout_place(participant.domain(), participant.partitions()),
                     wait, subscribers, timeout_s, measurement),
      endpoints_({participant.publisher(), participant.event_topic(), writer_qos(), "event"},
                 {participant.subscriber(), participant.reply_topic(), reply_reader_qos(), "reply"},
                 wait == Wait::listener ? this : nullptr, wait == Wait::waitset) {
  auto& payload = event_.payload();
  payload.resize(payload_bytes);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = pattern_byte(i);
}

mwbench::common::MatchCounts Publisher::matched() {
  dds::PublicationMatchedStatus published;
  dds::SubscriptionMatchedStatus subscribed;
  check(endpoints_.writer()->get_publication_matched_status(published),
        "publication matched status");
  check(endpoints_.reader()->get_subscription_matched_status(subscribed),
        "subscription matched status");
  return {published.current_count, subscribed.current_count};
}

void Publisher::send_event(std::uint64_t number) {
  event_.number(number);
  if (!endpoints_.writer()->write(&event_)) {
    throw std::runtime_error(number == 0 ? "DataWriter::write (probe) failed"
                                         : "DataWriter::write (event) failed");
  }
}

bool Publisher::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return endpoints_.wait(timeout.ns);
}

bool Publisher::take_reply(mwbench::common::EventReply& reply) {
  if (!take_valid(endpoints_.reader(), reply_, info_, "DataReader::take_next_sample (reply)"))
    return false;
  reply = {reply_.subscriber(), reply_.event_number(), reply_.status() == 1};
  return true;
}

}  // namespace fastdds_driver
