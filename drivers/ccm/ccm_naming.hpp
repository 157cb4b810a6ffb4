// A private omniNames for one server process: the naming service that the
// lookup_home_naming cell resolves the home in.
//
// The server starts it itself, on a free port of its --bind address (loopback
// by default; omniNames' endpoint names that address) and with a fresh log
// directory, so that a cell depends on nothing outside it and no two cells
// share a name space. It is the server's child with PR_SET_PDEATHSIG, so it
// dies with the server even if the server is killed; the destructor stops
// it (SIGTERM, then waits) and removes its log directory.
#pragma once

#include <sys/types.h>

#include <string>

namespace ccm_driver {

class NamingService {
 public:
  // Starts omniNames on `ipv4_address` and waits (up to `timeout_s`) until it
  // accepts connections.
  NamingService(const std::string& ipv4_address, double timeout_s);
  ~NamingService();
  NamingService(const NamingService&) = delete;
  NamingService& operator=(const NamingService&) = delete;

  // "corbaloc::1.2@ADDRESS:PORT/NameService", for -ORBInitRef NameService=.
  const std::string& corbaloc() const noexcept { return corbaloc_; }

 private:
  void stop() noexcept;

  pid_t pid_ = -1;
  std::string log_dir_;
  std::string corbaloc_;
};

}  // namespace ccm_driver
