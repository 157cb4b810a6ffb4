#include "mwbench/detail/crew.hpp"

#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace mwbench::detail {

Crew::Crew(int size, std::function<void()> on_failure)
    : size_(size), on_failure_(std::move(on_failure)) {}

void Crew::run(const std::function<void(int)>& body) {
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(size_));
  const int wanted = size_;
  for (int t = 0; t < wanted; ++t) {
    try {
      threads.emplace_back([this, &body, t] {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [this] { return gate_open_; });
        }
        body(t);
      });
    } catch (const std::system_error& e) {
      fail(std::make_exception_ptr(std::runtime_error("cannot start client thread " +
                                                      std::to_string(t + 1) + " of " +
                                                      std::to_string(wanted) + ": " + e.what())));
      break;
    }
  }
  {
    // The barriers count the threads that exist, not the ones asked for.
    std::lock_guard lock(mutex_);
    size_ = static_cast<int>(threads.size());
    gate_open_ = true;
  }
  changed_.notify_all();
  for (auto& thread : threads) thread.join();
  std::lock_guard lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

void Crew::sync(const std::function<void()>& last) {
  std::unique_lock lock(mutex_);
  const unsigned generation = generation_;
  if (++arrived_ == size_) {
    if (last) last();
    arrived_ = 0;
    ++generation_;
    changed_.notify_all();
    return;
  }
  changed_.wait(lock, [&] { return generation_ != generation; });
}

void Crew::fail(std::exception_ptr error) noexcept {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = !error_;
    if (first) error_ = std::move(error);
  }
  failed_.store(true);
  if (first && on_failure_) on_failure_();
}

}  // namespace mwbench::detail
