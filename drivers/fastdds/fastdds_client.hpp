// The client end of the fastdds driver: a writer on the ping topic, a reader
// on the pong topic, and the wait strategy that gets the pong to the
// measuring thread (waitset, listener or poll; README, "How the loop waits").
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <string>

#include "PingPong.h"
#include "common/doorbell.hpp"
#include "fastdds_session.hpp"
#include "mwbench/measurement.hpp"

namespace fastdds_driver {

// How a listener on the middleware's thread wakes the measuring thread.
using mwbench::common::Doorbell;

class Client : private dds::DataReaderListener {
 public:
  // Creates the ping writer and the pong reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`. A pong that
  // does not answer the ping is reported through `measurement.fail()`.
  Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
         mwbench::Measurement& measurement);
  // Deletes its reader first, which waits for a listener that is running.
  ~Client() override;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Before the warm-up: waits until the ping writer has matched a reader and
  // the pong reader a writer, then sends pings until one is answered (which
  // proves that the server's pong writer has matched this reader too).
  // Throws "no matching reader on topic ... after N s" and the like after
  // --timeout.
  void connect();

  // One measured round trip: write a ping, wait for its pong, check it.
  // Throws when no pong comes within --timeout.
  void call();

  // wait=chain, after connect(): the measured loop on Fast DDS's thread. The
  // pong listener takes each pong, checks it and calls
  // Measurement::replied(), which writes the next ping from there.
  void run_chained();

 private:
  enum class Await { answered, timed_out };
  struct Timeout {
    std::int64_t ns;
    timespec ts;
    Duration duration;
  };
  static Timeout make_timeout(double seconds) noexcept;

  void write_ping();
  // Waits for the pong of ping `seq_`, skipping older pongs (answers to
  // the repeated pings of connect()); checks it and returns.
  Await await_pong(const Timeout& timeout);
  void check_pong();
  // wait=listener rings the doorbell; wait=chain rings it during connect(),
  // then takes each pong (take_pongs).
  void on_data_available(dds::DataReader* reader) override;
  void take_pongs() noexcept;

  Participant& participant_;
  const Wait wait_;
  mwbench::Measurement& measurement_;
  const double timeout_s_;
  const Timeout timeout_;
  dds::DataWriter* writer_ = nullptr;
  dds::DataReader* reader_ = nullptr;
  dds::ReadCondition* condition_ = nullptr;  // wait=waitset, attached to waitset_
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;          // capacity reserved: waiting allocates nothing
  Doorbell doorbell_;                 // wait=listener, and chain during connect()
  std::atomic<bool> chained_{false};  // wait=chain: the measured loop has begun
  mwbench_fastdds::Sample ping_;
  mwbench_fastdds::Sample pong_;
  dds::SampleInfo info_;
  // The last ping's number and stamp. Atomic (relaxed) for wait=chain, where
  // the thread that checks a pong is not always the one that wrote its ping;
  // the network round trip between them orders them.
  std::atomic<std::uint64_t> seq_{0};
  std::atomic<std::uint64_t> stamp_{0};
};

}  // namespace fastdds_driver
