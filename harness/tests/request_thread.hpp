// A stand-in for a middleware's receive thread in the measured-loop tests:
// request(n) queues request n, and the thread handles the requests in order,
// calling handle(n) for each outside its lock (to reply: replied(),
// completed(n)).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace mwbench::testing {

class RequestThread {
 public:
  explicit RequestThread(std::function<void(std::uint64_t)> handle)
      : handle_(std::move(handle)), thread_([this] { serve(); }) {}
  ~RequestThread() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  RequestThread(const RequestThread&) = delete;
  RequestThread& operator=(const RequestThread&) = delete;

  void request(std::uint64_t n = 0) {
    {
      const std::lock_guard lock(mutex_);
      queue_.push_back(n);
      ++requests_;
    }
    cv_.notify_one();
  }
  // Requests made so far.
  std::uint64_t requests() {
    const std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      cv_.wait(lock, [this] { return done_ || !queue_.empty(); });
      if (done_) return;
      const std::uint64_t n = queue_.front();
      queue_.pop_front();
      lock.unlock();
      handle_(n);
      lock.lock();
    }
  }

  std::function<void(std::uint64_t)> handle_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::uint64_t> queue_;
  std::uint64_t requests_ = 0;
  bool done_ = false;
  std::thread thread_;  // last: started once the rest exists
};

}  // namespace mwbench::testing
