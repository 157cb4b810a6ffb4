// A collocated process's echo on a thread of its own: started with the echo,
// stopped and joined however the measurement ends. `Echo` has serve() (until
// stop()), stop() (from any thread) and failure() (what stopped it early, or
// an empty string): the echoes of the cyclonedds, fastdds and iceoryx drivers.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

namespace mwbench::common {

template <class Echo>
class EchoThread {
 public:
  // With `own_thread` false nothing is started: the middleware calls the
  // echo on a thread of its own (a listener), or inside the client's write.
  explicit EchoThread(Echo& echo, bool own_thread = true) : echo_(echo) {
    if (!own_thread) return;
    thread_ = std::thread([this] {
      try {
        echo_.serve();
      } catch (const std::exception& e) {
        error_ = e.what();
      }
    });
  }
  ~EchoThread() {
    echo_.stop();
    if (thread_.joinable()) thread_.join();
  }
  EchoThread(const EchoThread&) = delete;
  EchoThread& operator=(const EchoThread&) = delete;

  // Stops the echo; throws what stopped it early, if anything did.
  void join() {
    echo_.stop();
    if (thread_.joinable()) thread_.join();
    if (!error_.empty()) throw std::runtime_error("collocated echo: " + error_);
    if (const std::string failure = echo_.failure(); !failure.empty()) {
      throw std::runtime_error("collocated echo: " + failure);
    }
  }

 private:
  Echo& echo_;
  std::thread thread_;
  std::string error_;  // written by thread_, read after join
};

}  // namespace mwbench::common
