// The publisher of a fastdds fan-out (docs/driver-contract.md section 5): one
// DataWriter of the event topic, one DataReader of the reply topic, and the
// wait strategy that gets the replies to the measuring thread (as the
// client's: waitset, listener with a doorbell, or poll). mwbench::ReplyTally
// says when the last of the N replies to an event has arrived.
#pragma once

#include <cstdint>
#include <ctime>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <string>

#include "Fanout.h"
#include "common/doorbell.hpp"
#include "fastdds_fanout.hpp"
#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"

namespace fastdds_driver {

class Publisher : private dds::DataReaderListener {
 public:
  // Creates the event writer and the reply reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`, for a fan-out
  // to `subscribers` subscribers. A reply that answers no event in flight,
  // or reports a payload mismatch, is reported through `measurement.fail()`.
  Publisher(FanoutParticipant& participant, Wait wait, int subscribers, std::size_t payload_bytes,
            double timeout_s, mwbench::Measurement& measurement);
  // Deletes its reader first, which waits for a listener that is running.
  ~Publisher() override;
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // Before the warm-up, within --timeout: waits until the event writer has
  // matched N readers and the reply reader N writers, then writes handshake
  // probes (event 0, not counted) until every subscriber has answered one,
  // which proves that each reply writer has matched this reader too. Throws,
  // naming the subscribers that never answered, after --timeout.
  void connect();

  // One measured event: write it, wait for the N replies. On a timeout,
  // fail()s the measurement naming the subscribers missing.
  void call();

  // Events written (warm-up and measured; not the probes).
  std::uint64_t published() const noexcept { return tally_.published(); }

 private:
  // Takes what replies there are into the tally; true once the last is in
  // (or a failure ended the event).
  bool take_replies();
  void on_data_available(dds::DataReader* reader) override;

  FanoutParticipant& participant_;
  const Wait wait_;
  mwbench::Measurement& measurement_;
  const double timeout_s_;
  const std::int64_t timeout_ns_;
  const timespec timeout_ts_;
  const Duration timeout_duration_;
  dds::DataWriter* writer_ = nullptr;
  dds::DataReader* reader_ = nullptr;
  dds::ReadCondition* condition_ = nullptr;  // wait=waitset, attached to waitset_
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;            // capacity reserved: waiting allocates nothing
  mwbench::common::Doorbell doorbell_;  // wait=listener
  mwbench_fastdds::Event event_;
  mwbench_fastdds::Reply reply_;
  dds::SampleInfo info_;
  mwbench::ReplyTally tally_;
  std::uint64_t seq_ = 0;
};

}  // namespace fastdds_driver
