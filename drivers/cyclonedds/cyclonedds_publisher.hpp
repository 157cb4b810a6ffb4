// The publisher of a cyclonedds fan-out (docs/driver-contract-fanout.md):
// one writer of the event topic, one reader of the reply topic, and the
// waitset that wait=waitset blocks in. The handshake, the measured event and
// the gathering of its replies are the DDS drivers' shared EventPublisher
// (common/dds_event_publisher.hpp); this class says them in Cyclone's C API.
#pragma once

#include <cstdint>
#include <vector>

#include "common/dds_event_publisher.hpp"
#include "cyclonedds_fanout.hpp"
#include "cyclonedds_writer_reader.hpp"
#include "mwbench/measurement.hpp"

namespace cyclonedds {

class Publisher final : public mwbench::common::EventPublisher<Publisher> {
 public:
  // Creates the event writer and the reply reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`, for a fan-out
  // to `subscribers` subscribers. A reply that answers no event in flight,
  // or reports a payload mismatch, is reported through `measurement.fail()`.
  Publisher(FanoutParticipant& participant, Wait wait, int subscribers, std::size_t payload_bytes,
            double timeout_s, mwbench::Measurement& measurement);

 private:
  MWBENCH_DDS_EVENT_PUBLISHER_HOOKS(Publisher)
  static void on_data_available(dds_entity_t reader, void* publisher);

  std::vector<std::uint8_t> payload_;
  mwbench_dds_Event event_{};
  mwbench_dds_Reply reply_{};
  dds_sample_info_t info_{};
  WriterReader endpoints_;  // last: deleted first, while what its listener uses is alive
};

}  // namespace cyclonedds
