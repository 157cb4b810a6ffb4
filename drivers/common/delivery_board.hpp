// The delivery board: where a servant publishes the instant each call
// entered it, so that the client can time the delivery (its send to the
// servant's entry) on the one clock both processes share (CLOCK_MONOTONIC).
//
// A server creates the board as a file next to its endpoint file,
// `<endpoint-file>.delivery`, before it publishes the endpoint, and removes it
// when it stops; the client maps the same file. Collocated, both ends share
// one board in memory (in_process()). 64 bytes, little endian:
//   offset 0: uint32 entries   servant entries so far, raised after entry_ns
//                              is written (release)
//   offset 4: uint32 waiters   1 while a client sleeps in wait_for_entries(),
//                              so that stamp() makes the futex wake-up system
//                              call only when someone sleeps
//   offset 8: uint64 entry_ns  CLOCK_MONOTONIC ns of the latest entry
// One entry at a time is read: a client reads the board after its call has
// entered the servant and before it makes the next.
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>

namespace mwbench::common {

class DeliveryBoard {
 public:
  static constexpr std::size_t kBytes = 64;

  // The server's board: the file made (or emptied) and mapped; removed again
  // when the board is destroyed. Throws std::runtime_error naming the path.
  static DeliveryBoard create(const std::string& path);
  // The client's view of a server's board. Throws std::runtime_error naming
  // the path if it is missing or not a board.
  static DeliveryBoard open(const std::string& path);
  // A board in this process's memory, for a collocated servant and client.
  static DeliveryBoard in_process();
  // The board of a server whose endpoint file is `endpoint_file`.
  static std::string path_for(const std::string& endpoint_file) {
    return endpoint_file + ".delivery";
  }

  DeliveryBoard(DeliveryBoard&& other) noexcept;
  DeliveryBoard& operator=(DeliveryBoard&& other) noexcept;
  DeliveryBoard(const DeliveryBoard&) = delete;
  DeliveryBoard& operator=(const DeliveryBoard&) = delete;
  ~DeliveryBoard();

  // The servant, first thing on entry: records the time and counts the
  // entry, waking a client asleep in wait_for_entries().
  void stamp() noexcept;

  std::uint32_t entries() const noexcept { return entries_->load(std::memory_order_acquire); }
  // The latest entry's time; read after entries() has shown that entry.
  std::uint64_t entry_ns() const noexcept { return entry_ns_->load(std::memory_order_relaxed); }
  // Whether a client sleeps in wait_for_entries() (for tests).
  bool has_waiter() const noexcept { return waiters_->load(std::memory_order_seq_cst) != 0; }

  // Sleeps (FUTEX_WAIT on `entries`, shared between processes) until at
  // least `count` entries; false if `timeout` passes first. One waiter.
  bool wait_for_entries(std::uint32_t count, const timespec& timeout) noexcept;

 private:
  DeliveryBoard(void* memory, std::string owned_path) noexcept;
  void release() noexcept;

  void* memory_ = nullptr;
  std::string owned_path_;  // removed on destruction (the server's board)
  std::atomic<std::uint32_t>* entries_ = nullptr;
  std::atomic<std::uint32_t>* waiters_ = nullptr;
  std::atomic<std::uint64_t>* entry_ns_ = nullptr;
};

}  // namespace mwbench::common
