#include "omniorb_memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace omniorb_driver {

namespace {
constexpr std::size_t kCheckEvery = 1024;
constexpr std::size_t kHeadroomBytes = std::size_t{16} << 20;

// Whether `bytes` of address space can still be mapped. An allocation this
// large gets a mapping of its own (above malloc's mmap threshold), which
// free() unmaps at once; untouched, it costs no memory.
bool room_for(std::size_t bytes) noexcept {
  void* block = std::malloc(bytes);
  if (block == nullptr) return false;
  std::free(block);
  return true;
}
}  // namespace

void MemoryWatch::check(std::size_t done) const {
  if (!options_.memory_limit_mb || done % kCheckEvery != 0) return;
  if (!room_for(kHeadroomBytes)) throw std::runtime_error(message(done));
}

std::string MemoryWatch::message(std::size_t done) const {
  return options_.out_of_memory("after " + std::string(doing_) + " " + std::to_string(done) +
                                " of " + std::to_string(wanted_) + " servants");
}

void MemoryWatch::fail_inside_orb(std::size_t done, const std::function<void()>& cleanup) const {
  if (cleanup) cleanup();
  // No std::string here: there may be no memory left for one.
  std::fprintf(stderr, "mwbench-driver-omniorb: error: after %s %zu of %zu servants: out of memory",
               doing_, done, wanted_);
  if (options_.memory_limit_mb) {
    std::fprintf(stderr, " (--memory-limit-mb %llu)",
                 static_cast<unsigned long long>(*options_.memory_limit_mb));
  }
  std::fprintf(stderr, " inside omniORB, which cannot recover from it: ending at once\n");
  std::fflush(stderr);
  std::_Exit(1);
}

}  // namespace omniorb_driver
