// Running out of memory while activating servants or resolving references,
// under --memory-limit-mb.
//
// omniORB does not recover from an allocation that fails inside it: a lock
// stays held, and ORB::destroy() then waits for it forever (seen with 100,000
// servants under a 30 MiB limit). So the driver looks ahead: every 1024
// servants (or references) it checks that 16 MiB of address space are still
// to be had, far more than the next 1024 and a growth of omniORB's object
// table need, and stops with its own error while omniORB still has room.
// Should an allocation fail inside omniORB all the same, the process reports
// it and ends at once, without touching the ORB again.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "mwbench/options.hpp"

namespace omniorb_driver {

class MemoryWatch {
 public:
  // `doing`: "activating" or "resolving"; `wanted`: how many in all.
  MemoryWatch(const mwbench::DriverOptions& options, const char* doing, std::size_t wanted)
      : options_(options), doing_(doing), wanted_(wanted) {}

  // Before setting up number `done` (from 0). With --memory-limit-mb, throws
  // std::runtime_error (message()) once the room left is under 16 MiB.
  void check(std::size_t done) const;

  // "after activating 51200 of 100000 servants: out of memory (--memory-limit-mb 40)"
  std::string message(std::size_t done) const;

  // After an allocation failed inside omniORB: runs `cleanup` (files to
  // remove), prints the error as run_driver() would and ends the process
  // with status 1.
  [[noreturn]] void fail_inside_orb(std::size_t done, const std::function<void()>& cleanup) const;

 private:
  const mwbench::DriverOptions& options_;
  const char* doing_;
  std::size_t wanted_;
};

}  // namespace omniorb_driver
