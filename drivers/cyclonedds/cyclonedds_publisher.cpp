// The publisher in Cyclone's C API: entities, write, take and waitset.
#include "cyclonedds_publisher.hpp"

namespace cyclonedds {

Publisher::Publisher(FanoutParticipant& participant, Wait wait, int subscribers,
                     std::size_t payload_bytes, double timeout_s, mwbench::Measurement& measurement)
    : EventPublisher(mwbench::common::fanout_place(participant.domain(), participant.partitions()),
                     wait, subscribers, timeout_s, measurement),
      payload_(payload_bytes),
      endpoints_(
          participant.handle(),
          {participant.publisher(), participant.event_topic(), EndpointQos().get(), "event"},
          {participant.subscriber(), participant.reply_topic(), ReplyReaderQos().get(), "reply"},
          wait == Wait::listener ? this : nullptr, &Publisher::on_data_available,
          wait == Wait::waitset) {
  lend_payload(event_.payload, payload_);
}

void Publisher::on_data_available(dds_entity_t, void* publisher) {
  static_cast<Publisher*>(publisher)->replies_available();
}

mwbench::common::MatchCounts Publisher::matched() {
  dds_publication_matched_status_t published{};
  dds_subscription_matched_status_t subscribed{};
  check(dds_get_publication_matched_status(endpoints_.writer(), &published),
        "publication matched status");
  check(dds_get_subscription_matched_status(endpoints_.reader(), &subscribed),
        "subscription matched status");
  return {static_cast<int>(published.current_count), static_cast<int>(subscribed.current_count)};
}

void Publisher::send_event(std::uint64_t number) {
  event_.number = number;
  check(dds_write(endpoints_.writer(), &event_),
        number == 0 ? "dds_write (probe)" : "dds_write (event)");
}

bool Publisher::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return endpoints_.wait(timeout.ns);
}

bool Publisher::take_reply(mwbench::common::EventReply& reply) {
  if (!take_valid(endpoints_.reader(), &reply_, info_, "dds_take (reply)")) return false;
  reply = {static_cast<int>(reply_.subscriber), reply_.event_number, reply_.status == 1};
  return true;
}

}  // namespace cyclonedds
