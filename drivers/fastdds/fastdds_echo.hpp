// The serving end of the fastdds driver: a DataReader on the ping topic, a
// DataWriter on the pong topic and a WaitSet with a GuardCondition that
// stop() triggers. How it answers is the DDS drivers' shared PingEcho
// (common/dds_ping_echo.hpp); this class says it in Fast DDS's API.
#pragma once

#include <fastdds/dds/core/condition/GuardCondition.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>

#include "PingPong.h"
#include "common/dds_ping_echo.hpp"
#include "fastdds_session.hpp"
#include "fastdds_writer_reader.hpp"

namespace fastdds_driver {

class Echo final : public mwbench::common::PingEcho<Echo>, private dds::DataReaderListener {
 public:
  // Creates the pong writer, the ping reader (with its listener for
  // wait=listener) and a waitset with a guard condition that stop()
  // triggers. `payload_bytes` sizes the sample pings are taken into; with
  // `verify` every payload byte is checked against pattern_byte().
  Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify);
  // Detaches the guard; then endpoints_ deletes the reader, which waits for
  // a listener that is running.
  ~Echo() override;

 private:
  MWBENCH_DDS_PING_ECHO_HOOKS(Echo)
  void on_data_available(dds::DataReader* /*reader*/) override { answer_all(); }

  mwbench_fastdds::Sample ping_;
  mwbench_fastdds::Sample pong_;
  dds::SampleInfo info_;
  dds::GuardCondition guard_;  // triggered by stop(), in endpoints_'s waitset
  WriterReader endpoints_;     // last: deleted first, while what its listener uses is alive
};

}  // namespace fastdds_driver
