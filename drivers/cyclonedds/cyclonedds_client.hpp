// The client end of the cyclonedds driver: a writer on the ping topic, a
// reader on the pong topic, and the waitset that wait=waitset blocks in. How
// it connects, waits and checks is the DDS drivers' shared PingClient
// (common/dds_ping_client.hpp); this class says it in Cyclone's C API.
#pragma once

#include <cstdint>
#include <vector>

#include "common/dds_ping_client.hpp"
#include "cyclonedds_session.hpp"
#include "cyclonedds_writer_reader.hpp"
#include "mwbench/measurement.hpp"

namespace cyclonedds {

class Client final : public mwbench::common::PingClient<Client> {
 public:
  // Creates the ping writer and the pong reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`. A pong that
  // does not answer the ping is reported through `measurement.fail()`.
  Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
         mwbench::Measurement& measurement);

 private:
  MWBENCH_DDS_PING_CLIENT_HOOKS(Client)
  static void on_data_available(dds_entity_t reader, void* client);

  std::vector<std::uint8_t> payload_;
  mwbench_dds_Sample ping_{};
  OwnedSample pong_{0};  // a pong has no payload
  dds_sample_info_t info_{};
  WriterReader endpoints_;  // last: deleted first, while what its listener uses is alive
};

}  // namespace cyclonedds
