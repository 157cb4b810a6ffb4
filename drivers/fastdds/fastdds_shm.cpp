// Stale Fast DDS segments: found by their unheld lock files, removed.
#include "fastdds_shm.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <string_view>

namespace fastdds_driver {

namespace {

constexpr std::string_view kPrefix = "fastrtps_";
constexpr std::string_view kPortPrefix = "fastrtps_port";

// "fastrtps_<16 of [0-9a-z]>_el|_sl" or "fastrtps_port<digits>_el|_sl": the
// lock files of a participant's segment and of a port. Returns the segment's
// name, or empty for any other file.
std::string segment_of_lock(std::string_view name) {
  if (name.size() < 3 || !name.starts_with(kPrefix)) return {};
  const std::string_view suffix = name.substr(name.size() - 3);
  if (suffix != "_el" && suffix != "_sl") return {};
  const std::string_view segment = name.substr(0, name.size() - 3);
  if (segment.starts_with(kPortPrefix)) {
    const std::string_view digits = segment.substr(kPortPrefix.size());
    if (digits.empty() || digits.size() > 5 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return {};
    }
    return std::string(segment);
  }
  const std::string_view id = segment.substr(kPrefix.size());
  if (id.size() != 16 ||
      id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz") != std::string_view::npos) {
    return {};
  }
  return std::string(segment);
}

// True when nobody holds an flock on `path`: this process takes the exclusive
// lock without waiting (and drops it on close). A file that cannot be
// opened counts as held: whatever it is, it is not ours to remove.
bool unheld(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return locked;
}

}  // namespace

ShmCleanup remove_stale_segments(const std::string& dir) noexcept {
  ShmCleanup result;
  try {
    std::vector<std::string> locks;
    if (DIR* d = ::opendir(dir.c_str())) {
      while (const dirent* entry = ::readdir(d)) {
        if (!segment_of_lock(entry->d_name).empty()) locks.emplace_back(entry->d_name);
      }
      ::closedir(d);
    }
    for (const std::string& lock : locks) {
      const std::string segment = segment_of_lock(lock);
      if (!unheld(dir + "/" + lock)) {
        ++result.in_use;
        continue;
      }
      // The segment first: a process that starts now and finds the lock file
      // without its segment creates both afresh.
      std::vector<std::string> files = {segment, lock};
      if (segment.starts_with(kPortPrefix)) files.push_back("sem." + segment + "_mutex");
      for (const std::string& file : files) {
        if (::unlink((dir + "/" + file).c_str()) == 0) result.removed.push_back(file);
      }
    }
  } catch (...) {
    // Out of memory while listing: leave the rest for the next start.
  }
  return result;
}

}  // namespace fastdds_driver
