// A fresh directory of this process's own under /tmp (mkdtemp), for the
// socket files of a Unix-domain transport: the drivers' servers bind there,
// where no other run's socket can be. On destruction it removes the files in
// it and itself; destroy it after whatever listened there has closed.
#pragma once

#include <string>

namespace mwbench::common {

class PrivateDir {
 public:
  // "/tmp/<prefix>-XXXXXX"; throws std::runtime_error naming it on failure.
  explicit PrivateDir(const std::string& prefix);
  ~PrivateDir();
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;

  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace mwbench::common
