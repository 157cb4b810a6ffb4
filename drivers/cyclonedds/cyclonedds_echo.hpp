// The serving end of the cyclonedds driver: a reader on the ping topic, a
// writer on the pong topic and a waitset with a guard condition that stop()
// triggers. How it answers is the DDS drivers' shared PingEcho
// (common/dds_ping_echo.hpp); this class says it in Cyclone's C API.
#pragma once

#include "common/dds_ping_echo.hpp"
#include "cyclonedds_session.hpp"
#include "cyclonedds_writer_reader.hpp"

namespace cyclonedds {

class Echo final : public mwbench::common::PingEcho<Echo> {
 public:
  // Creates the ping reader (with its listener for wait=listener), the pong
  // writer and a waitset with a guard condition that stop() triggers.
  // `payload_bytes` sizes the buffer pings are taken into; with `verify`
  // every payload byte is checked against pattern_byte().
  Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify);
  // Deletes its guard condition; then endpoints_ deletes the reader, which
  // waits for a listener that is running.
  ~Echo();

 private:
  MWBENCH_DDS_PING_ECHO_HOOKS(Echo)
  static void on_data_available(dds_entity_t reader, void* echo);

  OwnedSample ping_;
  mwbench_dds_Sample pong_{};
  dds_sample_info_t info_{};
  WriterReader endpoints_;  // last: deleted first, while what its listener uses is alive
  dds_entity_t guard_ = 0;  // triggered by stop(), in endpoints_'s waitset
};

}  // namespace cyclonedds
