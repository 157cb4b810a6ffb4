// The serving end of the fastdds driver: a reader on the ping topic whose
// every sample is answered on the pong topic with its sequence number and
// timestamp (and, for `octets`, whether the payload arrived intact). The
// server process runs it on its main thread, a collocated process on a thread
// of its own (or, with wait=listener, on none: Fast DDS's thread answers).
#pragma once

#include <atomic>
#include <cstdint>
#include <fastdds/dds/core/condition/GuardCondition.hpp>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <mutex>
#include <string>

#include "PingPong.h"
#include "fastdds_session.hpp"

namespace fastdds_driver {

class Echo : private dds::DataReaderListener {
 public:
  // Creates the pong writer, the ping reader (with its listener for
  // wait=listener) and a waitset with a guard condition that stop()
  // triggers. `payload_bytes` sizes the sample pings are taken into; with
  // `verify` every payload byte is checked against pattern_byte().
  Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify);
  // Deletes its reader first, which waits for a listener that is running.
  ~Echo() override;
  Echo(const Echo&) = delete;
  Echo& operator=(const Echo&) = delete;

  // Serves until stop(): wait=waitset waits on the read condition, poll spins
  // on take_next_sample, listener leaves the answering to on_data_available
  // and only waits for the guard condition. Throws on a DDS error.
  void serve();
  // From any thread; serve() returns soon after.
  void stop() noexcept;
  // The first failure of the answering side (a payload mismatch with
  // verify=1, a failed write in the listener); empty if none.
  std::string failure() const;

 private:
  // Takes every ping there is and writes its pong. noexcept: it also runs
  // on Fast DDS's thread; a failure is kept for failure() and stops serve().
  void answer_all() noexcept;
  // Keeps the first failure. A write or take error stops serve() at once. A
  // payload mismatch (`refused`) lets it go on answering until the client
  // has acknowledged a pong that says so: the client may not yet have
  // matched the pong writer when its first ping was refused, and pings
  // again. At most kLingerS, in case the client has gone.
  void record_failure(std::string message, bool refused = false) noexcept;
  bool refusal_delivered() noexcept;
  static constexpr double kLingerS = 10;
  // verify=1: whether a ping's payload is the pattern of --payload-bytes bytes,
  // and, if not, the message that says where it is not.
  static std::size_t first_bad_byte(const mwbench_fastdds::Sample& ping) noexcept;
  bool intact(const mwbench_fastdds::Sample& ping) const noexcept;
  std::string mismatch(const mwbench_fastdds::Sample& ping) const;
  void on_data_available(dds::DataReader* reader) override;

  Participant& participant_;
  const Wait wait_;
  const std::size_t payload_bytes_;
  const bool verify_;
  dds::DataWriter* writer_ = nullptr;
  dds::DataReader* reader_ = nullptr;
  dds::ReadCondition* condition_ = nullptr;  // wait=waitset
  dds::GuardCondition guard_;
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;
  mwbench_fastdds::Sample ping_;
  mwbench_fastdds::Sample pong_;
  dds::SampleInfo info_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
  std::atomic<std::int64_t> failed_at_ns_{0};   // mwbench::now_ns() of the first refusal
  std::atomic<bool> refused_to_reader_{false};  // a refusal written while a reader matched
};

}  // namespace fastdds_driver
