// The client end in Cyclone's C API: entities, write, take and waitset.
#include "cyclonedds_client.hpp"

namespace cyclonedds {

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : PingClient(participant.endpoint(), wait, timeout_s, measurement), payload_(payload_bytes) {
  lend_payload(ping_.payload, payload_);

  const EndpointQos qos;
  writer_ =
      check(dds_create_writer(participant.handle(), participant.ping_topic(), qos.get(), nullptr),
            "dds_create_writer (ping)");
  reader_ = create_reader(participant.handle(), participant.pong_topic(), qos.get(),
                          answers_in_listener(wait) ? this : nullptr, &Client::on_data_available,
                          "dds_create_reader (pong)");
  if (wait == Wait::waitset) {
    waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
    attach_reader(waitset_, reader_, "dds_waitset_attach (pong)");
  }
}

Client::~Client() {
  if (reader_ > 0) dds_delete(reader_);  // its read condition with it
  if (waitset_ > 0) dds_delete(waitset_);
  if (writer_ > 0) dds_delete(writer_);
}

void Client::on_data_available(dds_entity_t, void* client) {
  static_cast<Client*>(client)->pong_available();
}

bool Client::ping_reader_matched() {
  dds_publication_matched_status_t status{};
  check(dds_get_publication_matched_status(writer_, &status), "publication matched status");
  return status.current_count > 0;
}

bool Client::pong_writer_matched() {
  dds_subscription_matched_status_t status{};
  check(dds_get_subscription_matched_status(reader_, &status), "subscription matched status");
  return status.current_count > 0;
}

void Client::send_ping(const mwbench::common::PingStamp& ping) {
  ping_.seq = ping.seq;
  ping_.stamp = ping.stamp;
  check(dds_write(writer_, &ping_), "dds_write (ping)");
}

bool Client::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return check(dds_waitset_wait(waitset_, nullptr, 0, timeout.ns), "dds_waitset_wait") != 0;
}

bool Client::take_pong(mwbench::common::PingStamp& pong) {
  if (!take_valid(reader_, &pong_.get(), info_, "dds_take (pong)")) return false;
  const mwbench_dds_Sample& taken = pong_.get();
  pong = {taken.seq, taken.stamp, taken.status};
  return true;
}

}  // namespace cyclonedds
