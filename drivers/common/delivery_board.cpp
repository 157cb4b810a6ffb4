// The delivery board: a 64-byte shared mapping and a futex on its first word.
#include "common/delivery_board.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "mwbench/clock.hpp"

namespace mwbench::common {

namespace {

static_assert(std::endian::native == std::endian::little, "the board's file is little endian");
static_assert(std::atomic<std::uint32_t>::is_always_lock_free &&
              std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(sizeof(std::atomic<std::uint32_t>) == 4 && sizeof(std::atomic<std::uint64_t>) == 8);

constexpr std::size_t kEntriesOffset = 0;
constexpr std::size_t kWaitersOffset = 4;
constexpr std::size_t kEntryNsOffset = 8;
// The longest single futex wait of wait_for_entries(), 1 ms.
constexpr std::uint64_t kLongestWaitNs = 1'000'000;

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error("delivery board " + path + ": " + what + ": " + std::strerror(errno));
}

void* map_file(int fd, const std::string& path) {
  void* memory = mmap(nullptr, DeliveryBoard::kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) {
    const int error = errno;
    close(fd);
    errno = error;
    fail("mmap", path);
  }
  close(fd);  // the mapping keeps the file
  return memory;
}

// Not FUTEX_*_PRIVATE: the waiter and the stamper are two processes, or two
// mappings of one file, which only a shared futex (keyed by the file) joins.
long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value,
           const timespec* timeout) noexcept {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, value, timeout, nullptr,
                   0);
}

}  // namespace

DeliveryBoard::DeliveryBoard(void* memory, std::string owned_path) noexcept
    : memory_(memory), owned_path_(std::move(owned_path)) {
  auto* bytes = static_cast<unsigned char*>(memory);
  entries_ = reinterpret_cast<std::atomic<std::uint32_t>*>(bytes + kEntriesOffset);
  waiters_ = reinterpret_cast<std::atomic<std::uint32_t>*>(bytes + kWaitersOffset);
  entry_ns_ = reinterpret_cast<std::atomic<std::uint64_t>*>(bytes + kEntryNsOffset);
}

DeliveryBoard DeliveryBoard::create(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("create", path);
  if (ftruncate(fd, kBytes) != 0) {  // zero-filled: no entries yet
    const int error = errno;
    close(fd);
    unlink(path.c_str());
    errno = error;
    fail("ftruncate", path);
  }
  try {
    return DeliveryBoard(map_file(fd, path), path);
  } catch (...) {
    unlink(path.c_str());
    throw;
  }
}

DeliveryBoard DeliveryBoard::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) fail("open (does the server run with --option delivery_time=1?)", path);
  struct stat status {};
  if (fstat(fd, &status) != 0 || status.st_size != static_cast<off_t>(kBytes)) {
    close(fd);
    throw std::runtime_error("delivery board " + path + ": not a board of " +
                             std::to_string(kBytes) + " bytes");
  }
  return DeliveryBoard(map_file(fd, path), "");
}

DeliveryBoard DeliveryBoard::in_process() {
  // Shared, not private: the futex is the same shared one as a file's.
  void* memory = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) fail("mmap", "(in process)");
  return DeliveryBoard(memory, "");
}

DeliveryBoard::DeliveryBoard(DeliveryBoard&& other) noexcept
    : memory_(std::exchange(other.memory_, nullptr)),
      owned_path_(std::exchange(other.owned_path_, {})),
      entries_(other.entries_),
      waiters_(other.waiters_),
      entry_ns_(other.entry_ns_) {}

DeliveryBoard& DeliveryBoard::operator=(DeliveryBoard&& other) noexcept {
  if (this != &other) {
    release();
    memory_ = std::exchange(other.memory_, nullptr);
    owned_path_ = std::exchange(other.owned_path_, {});
    entries_ = other.entries_;
    waiters_ = other.waiters_;
    entry_ns_ = other.entry_ns_;
  }
  return *this;
}

DeliveryBoard::~DeliveryBoard() { release(); }

void DeliveryBoard::release() noexcept {
  if (memory_ == nullptr) return;
  munmap(memory_, kBytes);
  memory_ = nullptr;
  if (!owned_path_.empty()) unlink(owned_path_.c_str());
}

void DeliveryBoard::stamp() noexcept {
  entry_ns_->store(now_ns(), std::memory_order_relaxed);
  // seq_cst with the waiter's: either it sees this entry before it sleeps,
  // or this sees it waiting and wakes it.
  entries_->fetch_add(1, std::memory_order_seq_cst);
  if (waiters_->load(std::memory_order_seq_cst) != 0) {
    futex(entries_, FUTEX_WAKE, 1, nullptr);
  }
}

bool DeliveryBoard::wait_for_entries(std::uint32_t count, const timespec& timeout) noexcept {
  const std::uint64_t timeout_ns = static_cast<std::uint64_t>(timeout.tv_sec) * 1'000'000'000u +
                                   static_cast<std::uint64_t>(timeout.tv_nsec);
  const std::uint64_t deadline_ns = now_ns() + timeout_ns;
  // Entries are counted modulo 2^32: "at least" is a signed difference.
  const auto reached = [count](std::uint32_t seen) {
    return static_cast<std::int32_t>(seen - count) >= 0;
  };
  std::uint32_t seen = entries_->load(std::memory_order_acquire);
  if (reached(seen)) return true;
  waiters_->store(1, std::memory_order_seq_cst);
  for (;;) {
    seen = entries_->load(std::memory_order_seq_cst);
    if (reached(seen)) break;
    const std::uint64_t now = now_ns();
    if (now >= deadline_ns) break;
    // Each wait lasts at most kLongestWaitNs: a servant that cannot make the
    // FUTEX_WAKE call (a JVM's stamps only the board) is then seen within it
    // rather than at the timeout.
    const std::uint64_t left = std::min(deadline_ns - now, kLongestWaitNs);
    const timespec relative{static_cast<time_t>(left / 1'000'000'000u),
                            static_cast<long>(left % 1'000'000'000u)};
    // Returns at once (EAGAIN) if an entry came since `seen` was read; on a
    // wake-up, EINTR or a spurious return, the loop looks again.
    futex(entries_, FUTEX_WAIT, seen, &relative);
  }
  waiters_->store(0, std::memory_order_relaxed);
  return reached(entries_->load(std::memory_order_acquire));
}

}  // namespace mwbench::common
