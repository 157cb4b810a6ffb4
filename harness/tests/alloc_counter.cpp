#include "alloc_counter.hpp"

#if !defined(__SANITIZE_ADDRESS__)
#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> g_counting{false};
std::atomic<int> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace mwbench::testing {

int count_allocations(const std::function<void()>& body) {
  g_allocations = 0;
  g_counting = true;
  body();
  g_counting = false;
  return g_allocations.load();
}

}  // namespace mwbench::testing
#endif
