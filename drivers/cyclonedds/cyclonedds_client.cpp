// The client end in Cyclone's C API: entities, write, take and waitset.
#include "cyclonedds_client.hpp"

namespace cyclonedds {

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : PingClient(participant.endpoint(), wait, timeout_s, measurement),
      payload_(payload_bytes),
      endpoints_(ping_pong_endpoints(participant, PingPongEnd::client,
                                     answers_in_listener(wait) ? this : nullptr,
                                     &Client::on_data_available, wait == Wait::waitset)) {
  lend_payload(ping_.payload, payload_);
}

void Client::on_data_available(dds_entity_t, void* client) {
  static_cast<Client*>(client)->pong_available();
}

bool Client::ping_reader_matched() {
  dds_publication_matched_status_t status{};
  check(dds_get_publication_matched_status(endpoints_.writer(), &status),
        "publication matched status");
  return status.current_count > 0;
}

bool Client::pong_writer_matched() {
  dds_subscription_matched_status_t status{};
  check(dds_get_subscription_matched_status(endpoints_.reader(), &status),
        "subscription matched status");
  return status.current_count > 0;
}

void Client::send_ping(const mwbench::common::PingStamp& ping) {
  ping_.seq = ping.seq;
  ping_.stamp = ping.stamp;
  check(dds_write(endpoints_.writer(), &ping_), "dds_write (ping)");
}

bool Client::wait_in_waitset(const mwbench::common::PingTimeout& timeout) {
  return endpoints_.wait(timeout.ns);
}

bool Client::take_pong(mwbench::common::PingStamp& pong) {
  if (!take_valid(endpoints_.reader(), &pong_.get(), info_, "dds_take (pong)")) return false;
  const mwbench_dds_Sample& taken = pong_.get();
  pong = {taken.seq, taken.stamp, taken.status};
  return true;
}

}  // namespace cyclonedds
