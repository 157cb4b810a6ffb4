// A private directory under /tmp (private_dir.hpp).
#include "common/private_dir.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace mwbench::common {

PrivateDir::PrivateDir(const std::string& prefix) {
  std::string pattern = "/tmp/" + prefix + "-XXXXXX";
  std::vector<char> dir(pattern.begin(), pattern.end());
  dir.push_back('\0');
  if (::mkdtemp(dir.data()) == nullptr) {
    throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
  }
  path_ = dir.data();
}

PrivateDir::~PrivateDir() {
  // The middleware may have unlinked its socket files already; this removes
  // whatever a crash of a previous step left behind.
  if (DIR* d = ::opendir(path_.c_str())) {
    while (const dirent* entry = ::readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") ::unlink((path_ + "/" + name).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(path_.c_str());
}

}  // namespace mwbench::common
