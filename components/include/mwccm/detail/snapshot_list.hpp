// A list read without locks on the hot path (the connections of a port).
// Writers (connect, disconnect: rare) copy the current vector under a mutex,
// edit the copy and publish it with one atomic store. Old versions are kept,
// not freed, until the list is destroyed: a reader that walks a snapshot, or
// holds a reference borrowed from one, never sees it vanish. The cost is
// memory per change, and ports change a handful of times in their life.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace mwccm::detail {

template <class Entry>
class SnapshotList {
 public:
  SnapshotList() {
    current_.store(versions_.emplace_back(std::make_unique<std::vector<Entry>>()).get());
  }
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  const std::vector<Entry>& snapshot() const noexcept {
    return *current_.load(std::memory_order_acquire);
  }

  // Runs edit(copy) under the writer lock and publishes the copy if edit
  // returns without throwing (a refused change publishes nothing).
  template <class Edit>
  void update(Edit&& edit) {
    std::lock_guard lock(write_mutex_);
    auto next = std::make_unique<std::vector<Entry>>(*current_.load(std::memory_order_relaxed));
    edit(*next);
    versions_.push_back(std::move(next));
    current_.store(versions_.back().get(), std::memory_order_release);
  }

 private:
  std::mutex write_mutex_;
  std::vector<std::unique_ptr<std::vector<Entry>>> versions_;
  std::atomic<const std::vector<Entry>*> current_{nullptr};
};

}  // namespace mwccm::detail
