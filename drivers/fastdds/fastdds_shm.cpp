// Stale Fast DDS segments: found by their unheld lock files, or by having
// none, removed.
#include "fastdds_shm.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <set>
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

constexpr std::string_view kDataSharingPrefix = "fast_datasharing_";

// "fast_datasharing_<GUID prefix>_<entity id>" (dotted hex, for instance
// fast_datasharing_01.0f.78.fd.b7.34.cf.aa.00.00.00.00_0.0.1.3): a writer's
// or reader's data-sharing pool (--option data_sharing=on), which has no lock
// file.
bool is_data_sharing_segment(std::string_view name) {
  const std::string_view rest = name.substr(std::min(name.size(), kDataSharingPrefix.size()));
  return name.starts_with(kDataSharingPrefix) && !rest.empty() && rest.size() <= 64 &&
         rest.find_first_not_of("0123456789abcdef._") == std::string_view::npos;
}

// "fastrtps_<16 of [0-9a-z]>", "fastrtps_port<digits>" or a data-sharing
// pool: a segment.
bool is_segment(std::string_view name) {
  if (is_data_sharing_segment(name)) return true;
  return !name.ends_with("_el") && !segment_of_lock(std::string(name) + "_el").empty();
}

// True when some process whose maps this one can read maps `path`.
bool mapped_by_a_process(const std::string& path) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return true;  // cannot tell: keep it
  bool mapped = false;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string_view pid = entry->d_name;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string_view::npos) continue;
    std::ifstream maps("/proc/" + std::string(pid) + "/maps");
    for (std::string line; !mapped && std::getline(maps, line);) {
      // "... /dev/shm/fastrtps_port7411" (or "... (deleted)"): the path ends a field.
      const std::size_t at = line.find(path);
      mapped = at != std::string::npos &&
               (at + path.size() == line.size() || line[at + path.size()] == ' ');
    }
    if (mapped) break;
  }
  ::closedir(proc);
  return mapped;
}

// The modification time of `path` if it is a regular file of this user
// (the only kind this process may remove from a sticky /dev/shm), else -1.
std::time_t own_file_mtime(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
    return -1;
  }
  return st.st_mtime;
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

ShmCleanup remove_stale_segments(const std::string& dir, std::chrono::seconds orphan_age) noexcept {
  ShmCleanup result;
  try {
    std::vector<std::string> locks;
    std::set<std::string> segments;
    if (DIR* d = ::opendir(dir.c_str())) {
      while (const dirent* entry = ::readdir(d)) {
        if (!segment_of_lock(entry->d_name).empty()) locks.emplace_back(entry->d_name);
        if (is_segment(entry->d_name)) segments.emplace(entry->d_name);
      }
      ::closedir(d);
    }
    // Segments without a lock file: stale once old enough and mapped by nobody.
    for (const std::string& lock : locks) segments.erase(segment_of_lock(lock));
    for (const std::string& segment : segments) {
      const std::string path = dir + "/" + segment;
      const std::time_t mtime = own_file_mtime(path);
      if (mtime < 0) continue;
      if (std::time(nullptr) - mtime <= orphan_age.count() || mapped_by_a_process(path)) {
        ++result.in_use;
        continue;
      }
      // A process that opens the port now makes its lock file first: look again.
      if (::access((path + "_el").c_str(), F_OK) == 0 ||
          ::access((path + "_sl").c_str(), F_OK) == 0) {
        continue;
      }
      std::vector<std::string> files = {segment};
      if (segment.starts_with(kPortPrefix)) files.push_back("sem." + segment + "_mutex");
      for (const std::string& file : files) {
        if (::unlink((dir + "/" + file).c_str()) == 0) result.removed.push_back(file);
      }
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
