// The client end of the cyclonedds driver: a writer on the ping topic, a
// reader on the pong topic, and the wait strategy that gets the pong to the
// measuring thread (waitset, listener or poll), or, with chain, that answers
// it on Cyclone's thread (README, "How the loop waits").
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "common/doorbell.hpp"
#include "cyclonedds_session.hpp"
#include "mwbench/measurement.hpp"

namespace cyclonedds {

// How a listener on the middleware's thread wakes the measuring thread.
using mwbench::common::Doorbell;

class Client {
 public:
  // Creates the ping writer and the pong reader (with the listener, read
  // condition and waitset that `wait` needs) in `participant`. A pong that
  // does not answer the ping is reported through `measurement.fail()`.
  Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
         mwbench::Measurement& measurement);
  // Deletes its reader first, which waits for a listener that is running.
  ~Client();
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

  // wait=chain, after connect(): the measured loop on Cyclone's thread. The
  // pong listener takes each pong, checks it and calls
  // Measurement::replied(), which writes the next ping from there.
  void run_chained();

 private:
  enum class Await { answered, timed_out };
  struct Timeout {
    std::int64_t ns;
    timespec ts;
  };
  static Timeout make_timeout(double seconds) noexcept;

  void write_ping();
  // Waits for the pong of ping `seq_`, skipping older pongs (answers to
  // the repeated pings of connect()); checks it and returns.
  Await await_pong(const Timeout& timeout);
  void check_pong();
  static void on_data_available(dds_entity_t reader, void* doorbell);
  // wait=chain: rings the doorbell during connect(), then takes each pong.
  static void on_pong(dds_entity_t reader, void* client);
  void take_pongs() noexcept;

  Participant& participant_;
  const Wait wait_;
  mwbench::Measurement& measurement_;
  const double timeout_s_;
  const Timeout timeout_;
  dds_entity_t writer_ = 0;
  dds_entity_t reader_ = 0;
  dds_entity_t waitset_ = 0;          // wait=waitset: the read condition of reader_ attached
  Doorbell doorbell_;                 // wait=listener, and chain during connect()
  std::atomic<bool> chained_{false};  // wait=chain: the measured loop has begun
  std::vector<std::uint8_t> payload_;
  mwbench_dds_Sample ping_{};
  OwnedSample pong_{0};  // a pong has no payload
  dds_sample_info_t info_{};
  // The last ping's number and stamp. Atomic (relaxed) for wait=chain, where
  // the thread that checks a pong is not always the one that wrote its ping;
  // the network round trip between them orders them.
  std::atomic<std::uint64_t> seq_{0};
  std::atomic<std::uint64_t> stamp_{0};
};

}  // namespace cyclonedds
