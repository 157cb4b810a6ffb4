// The publisher of a fastdds fan-out (docs/driver-contract-fanout.md): one
// DataWriter of the event topic, one DataReader of the reply topic, and the
// WaitSet that wait=waitset blocks in. The handshake, the measured event and
// the gathering of its replies are the DDS drivers' shared EventPublisher
// (common/dds_event_publisher.hpp); this class says them in Fast DDS's API.
#pragma once

#include <cstdint>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>

#include "Fanout.h"
#include "common/dds_event_publisher.hpp"
#include "fastdds_fanout.hpp"
#include "fastdds_writer_reader.hpp"
#include "mwbench/measurement.hpp"

namespace fastdds_driver {

class Publisher final : public mwbench::common::EventPublisher<Publisher>,
                        private dds::DataReaderListener {
 public:
  // Creates the event writer and the reply reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`, for a fan-out
  // to `subscribers` subscribers. A reply that answers no event in flight,
  // or reports a payload mismatch, is reported through `measurement.fail()`.
  Publisher(FanoutParticipant& participant, Wait wait, int subscribers, std::size_t payload_bytes,
            double timeout_s, mwbench::Measurement& measurement);

 private:
  MWBENCH_DDS_EVENT_PUBLISHER_HOOKS(Publisher)
  void on_data_available(dds::DataReader* /*reader*/) override { replies_available(); }

  mwbench_fastdds::Event event_;
  mwbench_fastdds::Reply reply_;
  dds::SampleInfo info_;
  WriterReader endpoints_;  // last: deleted first, while what its listener uses is alive
};

}  // namespace fastdds_driver
