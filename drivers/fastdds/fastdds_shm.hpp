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
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fastdds_driver {

struct ShmCleanup {
  std::vector<std::string> removed;  // file names removed from the directory
  std::size_t in_use = 0;            // lock files still held by a live process
};

// Removes every stale Fast DDS segment in `dir` (default /dev/shm) with its
// lock file (and, for a port, its mutex): those whose lock file this process
// can lock exclusively without waiting. Never throws; a file that cannot be
// removed (another user's) is left and not listed.
ShmCleanup remove_stale_segments(const std::string& dir = "/dev/shm") noexcept;

}  // namespace fastdds_driver
