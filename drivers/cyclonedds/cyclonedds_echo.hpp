// The serving end of the cyclonedds driver: a reader on the ping topic whose
// every sample is answered on the pong topic with its sequence number and
// timestamp (and, for `octets`, whether the payload arrived intact). The
// server process runs it on its main thread, a collocated process on a thread
// of its own (or, with wait=listener, on none: Cyclone's thread answers).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "cyclonedds_session.hpp"

namespace cyclonedds {

class Echo {
 public:
  // Creates the ping reader (with its listener for wait=listener), the pong
  // writer and a waitset with a guard condition that stop() triggers.
  // `payload_bytes` sizes the buffer pings are taken into; with `verify`
  // every payload byte is checked against pattern_byte().
  Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify);
  // Deletes its reader first, which waits for a listener that is running.
  ~Echo();
  Echo(const Echo&) = delete;
  Echo& operator=(const Echo&) = delete;

  // Serves until stop(): wait=waitset waits on the read condition, poll spins
  // on dds_take, listener leaves the answering to on_data_available and only
  // waits for the guard condition. Throws on a DDS error.
  void serve();
  // From any thread; serve() returns soon after.
  void stop() noexcept;
  // The first failure of the answering side (a payload mismatch with
  // verify=1, a failed write in the listener); empty if none.
  std::string failure() const;

 private:
  // Takes every ping there is and writes its pong. noexcept: it also runs
  // on Cyclone's thread; a failure is kept for failure() and stops serve().
  void answer_all() noexcept;
  // Keeps the first failure. A write or take error stops serve() at once. A
  // payload mismatch (`refused`) lets it go on answering until the client
  // has acknowledged a pong that says so: the client may not yet have
  // matched the pong writer when its first ping was refused, and pings
  // again. At most kLinger, in case the client has gone.
  void record_failure(std::string message, bool refused = false) noexcept;
  bool refusal_delivered() const noexcept;
  // verify=1: whether a ping's payload is the pattern of --payload-bytes bytes,
  // and, if not, the message that says where it is not.
  static std::size_t first_bad_byte(const mwbench_dds_Sample& ping) noexcept;
  bool intact(const mwbench_dds_Sample& ping) const noexcept;
  std::string mismatch(const mwbench_dds_Sample& ping) const;
  static constexpr std::int64_t kLinger = DDS_SECS(10);
  static void on_data_available(dds_entity_t reader, void* echo);

  const Wait wait_;
  const std::size_t payload_bytes_;
  const bool verify_;
  dds_entity_t reader_ = 0;
  dds_entity_t writer_ = 0;
  dds_entity_t waitset_ = 0;
  dds_entity_t guard_ = 0;
  OwnedSample ping_;
  mwbench_dds_Sample pong_{};
  dds_sample_info_t info_{};
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
  std::atomic<dds_time_t> failed_at_{0};        // dds_time() of the first refusal
  std::atomic<bool> refused_to_reader_{false};  // a refusal written while a reader matched
};

}  // namespace cyclonedds
