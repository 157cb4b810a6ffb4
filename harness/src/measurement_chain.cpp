// Measurement::run_chained(): calls chained on the thread that handles each
// reply (measurement.hpp says what for). Each call is started by whichever
// thread holds the chain, and timed from just before send() to the reply;
// a sample covers batch_size calls. Nothing here allocates or locks between
// the first call and the last: the end, alone, takes a mutex to wake the
// waiting thread.
#include <algorithm>
#include <chrono>
#include <exception>

#include "mwbench/measurement.hpp"

namespace mwbench {

void Measurement::start_chain(void (*send)(void*), void* sender) {
  start_run();
  chain_.send = send;
  chain_.sender = sender;
  chain_.warmup_left = options_.warmup;
  chain_.probes_left = options_.batch ? 0 : Chain::kProbes;
  batch_ = options_.batch.value_or(1);
  if (chain_.warmup_left == 0 && chain_.probes_left == 0) probe_.start();
}

void Measurement::replied() noexcept {
  if (chain_.ended.load(std::memory_order_acquire)) return;
  chain_.reply_ns = now_ns();
  chain_.replies.fetch_add(1, std::memory_order_relaxed);
  int sending = Chain::kSending;
  // The sender is still inside send(): it carries on once send() returns.
  if (chain_.link.compare_exchange_strong(sending, Chain::kReplied, std::memory_order_acq_rel)) {
    return;
  }
  advance_chain(/*completed=*/true);
}

void Measurement::advance_chain(bool completed) noexcept {
  for (;;) {
    if (completed) account_reply(chain_.reply_ns);
    if (chain_.taken == buffer_.size() || stop_requested()) {
      end_chain();
      return;
    }
    const std::uint64_t start = now_ns();
    if (chain_.warmup_left == 0 && chain_.probes_left == 0 && chain_.in_sample == 0) {
      chain_.sample_start_ns = start;
    }
    chain_.call_start_ns = start;
    chain_.link.store(Chain::kSending, std::memory_order_release);
    try {
      chain_.send(chain_.sender);
    } catch (const std::exception& e) {
      chain_.send_error = e.what();
      request_stop();
      end_chain();
      return;
    }
    // A reply that came during send() left the next call to this thread.
    if (chain_.link.exchange(Chain::kAwaiting, std::memory_order_acq_rel) != Chain::kReplied) {
      return;
    }
    completed = true;
  }
}

void Measurement::account_reply(std::uint64_t reply_ns) noexcept {
  if (chain_.warmup_left > 0) {
    --chain_.warmup_left;
    ++warmup_done_;
    if (chain_.warmup_left == 0 && chain_.probes_left == 0) probe_.start();
    return;
  }
  if (chain_.probes_left > 0) {
    chain_.probe_ns[Chain::kProbes - chain_.probes_left] = reply_ns - chain_.call_start_ns;
    if (--chain_.probes_left > 0) return;
    // The smallest power of two whose batch, at the median call, is long enough.
    std::sort(chain_.probe_ns, chain_.probe_ns + Chain::kProbes);
    const std::uint64_t call_ns = std::max<std::uint64_t>(chain_.probe_ns[Chain::kProbes / 2], 1);
    batch_ = 1;
    while (batch_ < kMaxAutoBatch && !batch_long_enough(batch_ * call_ns)) batch_ *= 2;
    probe_.start();
    return;
  }
  if (++chain_.in_sample < batch_) return;
  chain_.in_sample = 0;
  buffer_[chain_.taken++] = reply_ns - chain_.sample_start_ns;
  if (chain_.taken == 1) announce_measuring();
}

void Measurement::end_chain() noexcept {
  if (chain_.taken > 0 || (chain_.warmup_left == 0 && chain_.probes_left == 0)) probe_.stop();
  {
    const std::lock_guard lock(chain_.end_mutex);
    chain_.ended.store(true, std::memory_order_release);
  }
  chain_.end_cv.notify_all();
}

// The chain ends by itself after its last sample, or at the reply after a
// stop request. Without a reply for --timeout it is ended here: later replies
// change nothing, and the run fails unless a stop was requested.
void Measurement::wait_for_chain() {
  const auto patience = std::chrono::duration<double>(options_.timeout_s);
  bool silent = false;
  {
    std::unique_lock lock(chain_.end_mutex);
    std::uint64_t seen = chain_.replies.load(std::memory_order_relaxed);
    while (!chain_.ended.load(std::memory_order_acquire)) {
      if (chain_.end_cv.wait_for(lock, patience) == std::cv_status::no_timeout) continue;
      const std::uint64_t now = chain_.replies.load(std::memory_order_relaxed);
      if (now == seen && !chain_.ended.load(std::memory_order_acquire)) {
        chain_.ended.store(true, std::memory_order_release);
        silent = true;
      }
      seen = now;
    }
  }
  if (silent && !stop_requested()) {
    fail("no reply to call " + std::to_string(warmup_done_ + chain_.taken * batch_ + 1) +
         " within " + std::to_string(options_.timeout_s) + " s (--timeout)");
  }
  if (!chain_.send_error.empty()) throw std::runtime_error(chain_.send_error);
  finish(chain_.taken);
}

}  // namespace mwbench
