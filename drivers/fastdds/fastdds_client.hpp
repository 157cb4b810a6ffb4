// The client end of the fastdds driver: a DataWriter on the ping topic, a
// DataReader on the pong topic, and the WaitSet that wait=waitset blocks in.
// How it connects, waits and checks is the DDS drivers' shared PingClient
// (common/dds_ping_client.hpp); this class says it in Fast DDS's API.
#pragma once

#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>

#include "PingPong.h"
#include "common/dds_ping_client.hpp"
#include "fastdds_session.hpp"
#include "fastdds_writer_reader.hpp"
#include "mwbench/measurement.hpp"

namespace fastdds_driver {

class Client final : public mwbench::common::PingClient<Client>, private dds::DataReaderListener {
 public:
  // Creates the ping writer and the pong reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`. A pong that
  // does not answer the ping is reported through `measurement.fail()`.
  Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
         mwbench::Measurement& measurement);

 private:
  MWBENCH_DDS_PING_CLIENT_HOOKS(Client)
  void on_data_available(dds::DataReader* /*reader*/) override { pong_available(); }

  mwbench_fastdds::Sample ping_;
  mwbench_fastdds::Sample pong_;
  dds::SampleInfo info_;
  WriterReader endpoints_;  // last: deleted first, while what its listener uses is alive
};

}  // namespace fastdds_driver
