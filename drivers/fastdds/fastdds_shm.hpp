// Shared-memory leftovers of Fast DDS in /dev/shm, and their removal.
//
// Fast DDS's shared-memory transport keeps, per participant, a segment
// `fastrtps_<16 hex digits>` and per listening port a segment
// `fastrtps_port<N>` with its named mutex `sem.fastrtps_port<N>_mutex`. Each
// segment and port has a lock file beside it (`<name>_el`, or `<name>_sl` for
// a port opened shared) on which its owners hold an flock(2) as long as they
// live: the kernel drops the lock of a process that dies, however it dies.
// So a lock file nobody holds a lock on belongs to dead owners, and its
// segment is stale (the test Fast DDS's own `fastdds shm clean` applies;
// Debian's packages do not ship that tool).
//
// Data sharing's pools (`fast_datasharing_<GUID prefix>_<entity id>`, one per
// writer and reader with --option data_sharing=on) have no lock file; they
// are handled as the segments without one below.
//
// A crash can also leave a segment without any lock file (Fast DDS removes
// the lock file and the segment one after the other). Its owner is dead too:
// a live owner holds its lock file, which therefore exists. Two cases could
// still belong to a live process, and are kept: a segment younger than
// kOrphanAge (its creator may not have made its lock file yet), and one that
// a process maps (/proc/<pid>/maps; a lock file deleted under a live owner
// by some other tool).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace fastdds_driver {

struct ShmCleanup {
  std::vector<std::string> removed;  // file names removed from the directory
  std::size_t in_use = 0;  // lock files still held, segments without one still mapped or young
};

// How old (by its modification time) a segment without a lock file must be
// before it counts as stale.
inline constexpr std::chrono::seconds kOrphanAge{10};

// Removes every stale Fast DDS segment in `dir` (default /dev/shm) with its
// lock file (and, for a port, its mutex): those whose lock file this process
// can lock exclusively without waiting, and those without a lock file that
// are older than `orphan_age`, owned by this user, and mapped by no process
// whose maps this process can read. Never throws; a file that cannot be
// removed (another user's) is left and not listed.
ShmCleanup remove_stale_segments(const std::string& dir = "/dev/shm",
                                 std::chrono::seconds orphan_age = kOrphanAge) noexcept;

}  // namespace fastdds_driver
