// The measured loop of a client (or collocated) process.
//
// A driver's measure() connects to its middleware, then hands the one call it
// measures to Measurement::run(), or, for --threads N, a per-thread setup that
// returns each thread's call to Measurement::run_threads(). The harness owns
// everything around that call: warm-up, batch size, clock reads, the sample
// buffers, and the wall time, CPU and resource use of the loop. Both are
// templates so the call inlines into the loop; the loop itself does no
// allocation, I/O, logging or locking.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "mwbench/clock.hpp"
#include "mwbench/detail/crew.hpp"
#include "mwbench/named_series.hpp"
#include "mwbench/open_loop.hpp"
#include "mwbench/options.hpp"

namespace mwbench {

namespace detail {

struct ResourceUsage {
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
  std::int64_t user_us = 0;
  std::int64_t system_us = 0;
  std::int64_t max_rss_kb = 0;
};

// Wall time, resource use and CPU around one measured loop (or one serve()).
// Resource use is process-wide (RUSAGE_SELF) because middleware may do part of
// a call's work on threads of its own.
class LoopProbe {
 public:
  void start() noexcept;
  void stop() noexcept;

  std::uint64_t wall_ns() const noexcept { return end_ns_ - start_ns_; }
  int cpu_first() const noexcept { return cpu_first_; }
  int cpu_last() const noexcept { return cpu_last_; }
  // Switches and CPU time during the loop; max_rss_kb is the process's peak.
  ResourceUsage usage() const noexcept;

 private:
  std::uint64_t start_ns_ = 0;
  std::uint64_t end_ns_ = 0;
  int cpu_first_ = -1;
  int cpu_last_ = -1;
  ResourceUsage before_;
  ResourceUsage after_;
};

}  // namespace detail

class Measurement {
 public:
  // Allocates and touches the sample buffers (--threads × --samples entries)
  // now, so the loop never takes a page fault on them. run_driver() builds
  // one; tests may too. `clock_read_cost_ns` sets the auto batch threshold.
  Measurement(const DriverOptions& options, double clock_read_cost_ns);
  Measurement(const Measurement&) = delete;
  Measurement& operator=(const Measurement&) = delete;

  const DriverOptions& options() const noexcept { return options_; }

  // The endpoint the server published in --endpoint-file: waits up to
  // --timeout seconds for the file to appear. Throws std::runtime_error naming
  // the path on timeout, or when a stop was requested while waiting.
  std::string read_endpoint();
  // A fan-out client: every subscriber process's endpoint, in the order of
  // the --endpoint-file arguments, each waited for as read_endpoint() does.
  std::vector<std::string> read_endpoints();

  // Measures on the calling thread (--threads 1 only; throws
  // std::logic_error otherwise). Runs the warm-up (--warmup calls), picks
  // the batch size (--batch, or auto: the smallest power of two whose batch
  // lasts at least 100 clock reads), then takes --samples samples of
  // batch_size calls each. `call` makes one call. Returns early, keeping
  // what was measured, after request_stop(). Throws std::runtime_error after
  // the loop if the call reported fail().
  template <class Call>
  void run(Call&& call);

  // Measures on --threads threads. `setup(thread)` (thread 0 .. N-1) runs on
  // each measuring thread, outside any timed region, and returns that
  // thread's call (a callable that owns its connection, buffers, ...):
  //
  //   m.run_threads([&](int thread) {
  //     return [conn = connect(endpoint)]() mutable { conn.call(); };
  //   });
  //
  // Then all threads warm up together (--warmup calls each) and, with
  // --batch auto, each probes a batch size; all use the largest probed, so
  // that every thread's batches last long enough. Then all start their
  // measured loops together, each filling its own buffer (one series per
  // thread), and wait for the last to end before their calls are
  // destroyed. With --threads 1 it is run(setup(0)) on the calling thread.
  // The first exception of any thread (setup or call) stops all of them and
  // is rethrown here; request_stop() and fail() work as for run().
  template <class Setup>
  void run_threads(Setup&& setup);

  // Measures calls whose replies arrive on the middleware's own thread,
  // without handing each reply to a measuring thread (as ddsperf's ping
  // answers in its listener). `send()` starts one call (writes a request)
  // and returns; the driver calls replied() from whichever thread handles
  // the reply: a listener on the middleware's receive thread, or send()
  // itself when the middleware delivers within the call. replied() takes the
  // time and starts the next call on that same thread, so a round trip wakes
  // no thread of the driver's own. The calling thread starts the chain and
  // sleeps until it ends. Warm-up, --batch, --samples, request_stop() and
  // fail() as for run(); with --batch auto, five single calls after the
  // warm-up are timed to choose the batch. A call without a reply for
  // --timeout seconds ends the run with an error. --threads 1 only. The
  // driver must stop its replies (delete the reader whose listener calls
  // replied()) before anything send() uses is destroyed.
  template <class Send>
  void run_chained(Send&& send);
  // The reply to the call in flight has arrived (see run_chained()).
  void replied() noexcept;

  // Open loop (--load constant:R or poisson:R; open_loop.hpp): sends on a
  // schedule of intended start times and never waits for a reply before the
  // next send. `send(call)` starts call number `call` (0, 1, 2, ...: --warmup
  // warm-up calls, then --samples measured ones) and returns without waiting
  // for its reply; the driver calls completed(call) from whichever thread
  // receives that call's reply (a reader thread, a middleware callback). A
  // driver whose middleware answers in order may count replies itself (reply
  // k answers call k). The sending thread sleeps until each intended time
  // less a spin margin calibrated in the warm-up, and waits the rest without
  // sleeping, yielding the CPU (spin_margin.hpp); after the last send it
  // waits until every call is answered or no reply came for --timeout
  // seconds. A driver that can receive replies on the sending thread gives
  // `wait_until(deadline_ns)` as well: it receives replies (calling
  // completed()) until CLOCK_MONOTONIC reaches the deadline, may return
  // earlier after a reply, and with a deadline that has passed (0 included)
  // takes what is there without blocking. The harness then waits through it
  // instead of sleeping (between sends and for the last replies), polls it
  // in every turn of its spin and before a late send, and needs no thread to
  // wake: at a low load a reply wakes the sending thread, as in a closed
  // loop. A sample is a measured call's
  // response time from its intended start; the named series "service_time"
  // (from its send) and "send_lag" (send - intended) come with it, and the
  // result header's "load" says what was offered and achieved. Calls still
  // unanswered are lost: their samples are left out. --threads 1, --batch 1
  // (or auto); no named series of the driver's own. request_stop() and
  // fail() as for run(). The driver must stop calling completed() (join its
  // reader) before this Measurement is destroyed.
  template <class Send>
  void run_open(Send&& send);
  template <class Send, class WaitUntil>
  void run_open(Send&& send, WaitUntil&& wait_until);
  // The reply to `call` has arrived (see run_open()): any thread, each call
  // at most once. Reads the clock first.
  void completed(std::uint64_t call) noexcept {
    if (open_) open_->complete(call, now_ns());
  }
  // Whether --load is open: the driver measures with run_open().
  bool open_loop() const noexcept { return open_ != nullptr; }
  // What run_open() offered and achieved (the header's "load"), or null.
  const OpenLoopSummary* open_loop_summary() const noexcept {
    return open_summary_ ? &*open_summary_ : nullptr;
  }

  // Samples timed by the application rather than by this loop: a one-way
  // latency the middleware or the application records with its own clock
  // (Basic SP's HUD records each tick's time from the tick to the display).
  // `collect(n)` runs it until it has recorded n durations (ns), or until
  // stop_requested(), and returns them in the order they happened. The first
  // --warmup are dropped and at most --samples kept, one per sample; the
  // result header says "timed_by": "driver". --threads 1, --batch 1 or auto.
  void run_reported(const std::function<std::vector<std::uint64_t>(std::uint64_t)>& collect);
  // Whether the samples came from run_reported().
  bool reported() const noexcept { return reported_; }

  // For use inside the call, from any thread: reports a correctness failure
  // (an echo that does not match, say). The loops stop before their next
  // sample and run() throws with `message`. Only the first failure is kept.
  void fail(std::string message);

  // A part of each sample that the call times itself (named_series.hpp), to
  // declare before run(), in the order the result file lists them;
  // `part_of` names a series declared earlier, or is empty. A sample with
  // named series is one call: --batch must be 1 or auto (then 1), and only
  // run() measures them. Throws UsageError for a bad or repeated name, or a
  // `part_of` not declared yet. The reference lives as long as this.
  NamedSeries& named_series(const std::string& name, const std::string& part_of = "");
  const std::deque<NamedSeries>& named() const noexcept { return named_; }

  // Records how the middleware was configured (an ORB's options, a QoS
  // profile), written to the result header as "middleware_config". Call it
  // before run(); later calls replace it.
  void record_middleware_config(nlohmann::json config) { config_ = std::move(config); }
  const nlohmann::json& middleware_config() const noexcept { return config_; }

  // Fan-out (operation "fanout"): the events the publisher sent (warm-up
  // included, handshakes not), and, in a collocated process, the events each
  // subscriber received. Written to the result header's "fanout"; call them
  // after run().
  void record_events_published(std::uint64_t events) noexcept { published_ = events; }
  void record_events_received(std::vector<std::uint64_t> per_subscriber) {
    received_ = std::move(per_subscriber);
  }
  std::uint64_t events_published() const noexcept { return published_; }
  const std::vector<std::uint64_t>& events_received() const noexcept { return received_; }

  // A slowdown injected on purpose, for testing regression detection: the
  // environment variable MWBENCH_INJECT_DELAY_NS makes every measured call
  // busy-wait that long after it returns. Recorded in the result header as
  // "injected_delay_ns"; 0 (no variable) leaves the loop untouched.
  std::uint64_t injected_delay_ns() const noexcept { return injected_delay_ns_; }

  // Asks the loops to stop before their next sample. Safe from any thread;
  // the harness calls it on SIGINT/SIGTERM.
  void request_stop() noexcept;
  bool stop_requested() const noexcept { return stop_.load(std::memory_order_relaxed); }

  // One thread's share of the samples.
  struct Series {
    std::uint64_t count = 0;    // samples it took
    std::uint64_t wall_ns = 0;  // from its loop's start to its end
  };

  // What the run did, for the result file.
  bool ran() const noexcept { return ran_; }
  // Every sample taken, series after series (thread 1 first).
  std::span<const std::uint64_t> samples() const noexcept { return {buffer_.data(), measured_}; }
  std::uint64_t samples_wanted() const noexcept;  // --threads × --samples
  // One entry per thread (one entry for run()).
  std::span<const Series> series() const noexcept { return series_; }
  // From the first thread's loop start to the last thread's loop end.
  std::uint64_t measured_wall_ns() const noexcept { return measured_wall_ns_; }
  std::uint64_t batch_size() const noexcept { return batch_; }
  // Warm-up calls made (by each thread; the fewest if a stop cut them short).
  std::uint64_t warmup_done() const noexcept { return warmup_done_; }
  // Process-wide resource use from the start of the loops to the end of the
  // last one; its CPUs are those of the threads that started and ended them.
  const detail::LoopProbe& probe() const noexcept { return probe_; }

  // Upper bound of the auto batch size, in case a call costs nothing.
  static constexpr std::uint64_t kMaxAutoBatch = std::uint64_t{1} << 24;

 private:
  // What one thread of run_threads() did; a cache line each, as the
  // threads write theirs while the others run.
  struct alignas(64) Lane {
    std::uint64_t warmup_done = 0;
    std::uint64_t batch = 1;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t measured = 0;
  };

  template <class Call>
  void measure_loop(Call& call);
  template <class Call>
  std::uint64_t timed_loop(Call& call, std::uint64_t* out, std::uint64_t wanted,
                           std::uint64_t batch);
  template <class Call>
  std::uint64_t choose_batch(Call& call);
  template <class Setup>
  void lane(Setup& setup, int thread, detail::Crew& crew);
  template <class Call>
  void lane_loops(Call* call, Lane& lane, int thread, detail::Crew& crew);
  // Whether a batch measured at `batch_ns` is long enough for auto batching.
  bool batch_long_enough(std::uint64_t batch_ns) const noexcept;
  void start_run();
  void refuse_named_series(const char* how) const;  // logic_error if any was declared
  // logic_error("--threads N: <why>") unless --threads is 1.
  void require_one_thread(const char* why) const;
  // MWBENCH_MEASURING_FILE: the file is created once a first sample is kept.
  void announce_measuring() noexcept;
  // run_chained(): the non-template half (measurement_chain.cpp).
  void start_chain(void (*send)(void*), void* sender);
  void advance_chain(bool completed) noexcept;
  void account_reply(std::uint64_t reply_ns) noexcept;
  void end_chain() noexcept;
  void wait_for_chain();
  // run_open(): the non-template half (measurement_open.cpp).
  static std::unique_ptr<OpenLoopCalls> open_calls(const DriverOptions& options);
  OpenLoopCalls& begin_open();
  template <class Clock, class Send>
  void run_open_on(Clock& clock, Send& send);
  template <class Clock, class Send>
  void send_open(Clock& clock, OpenLoopCalls& calls, Send& send);
  std::uint64_t open_patience_ns() const noexcept;  // --timeout
  void end_open(std::uint64_t sent);                // after the wait for replies
  void settle_lanes() noexcept;                     // the batch size and warm-up of all threads
  void finish(std::uint64_t measured);
  void finish_lanes();  // series, wall time, samples moved together

  const DriverOptions& options_;
  double read_cost_ns_;
  std::uint64_t stride_ = 0;  // buffer entries per thread
  std::vector<std::uint64_t> buffer_;
  std::vector<Lane> lanes_;  // run_threads() with more than one thread only
  std::atomic<bool> stop_{false};
  std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
  bool ran_ = false;
  std::uint64_t measured_ = 0;
  std::vector<Series> series_;
  std::uint64_t measured_wall_ns_ = 0;
  std::uint64_t batch_ = 1;
  std::uint64_t warmup_done_ = 0;
  detail::LoopProbe probe_;
  nlohmann::json config_;  // null until recorded
  std::uint64_t injected_delay_ns_ = 0;
  std::string measuring_file_;  // MWBENCH_MEASURING_FILE, or empty
  std::atomic<bool> announced_{false};
  std::uint64_t published_ = 0;
  std::vector<std::uint64_t> received_;
  std::deque<NamedSeries> named_;        // a deque: references stay valid as it grows
  bool reported_ = false;                // run_reported(): the driver's samples
  std::unique_ptr<OpenLoopCalls> open_;  // an open --load only
  std::optional<OpenLoopSummary> open_summary_;
  int timer_slack_ns_ = 0;  // of the sending thread before run_open()

  // The state of run_chained(), shared by the thread that sent a call and the
  // one that handles its reply. `link` says who carries the chain on: while
  // send() runs it is kSending; a reply that arrives meanwhile sets kReplied
  // and leaves the next call to the sender; otherwise the replier makes it.
  struct Chain {
    static constexpr int kAwaiting = 0, kSending = 1, kReplied = 2;
    static constexpr int kProbes = 5;  // --batch auto: single calls timed
    void (*send)(void*) = nullptr;
    void* sender = nullptr;
    std::atomic<int> link{kAwaiting};
    std::uint64_t reply_ns = 0;  // of the last reply; published by `link` or the same thread
    std::uint64_t call_start_ns = 0;
    std::uint64_t sample_start_ns = 0;
    std::uint64_t warmup_left = 0;
    int probes_left = 0;
    std::uint64_t probe_ns[kProbes] = {};
    std::uint64_t in_sample = 0;  // calls of the sample being taken
    std::uint64_t taken = 0;      // samples kept
    std::atomic<std::uint64_t> replies{0};
    std::atomic<bool> ended{false};
    std::mutex end_mutex;  // with end_cv, wakes the thread in wait_for_chain()
    std::condition_variable end_cv;
    std::string send_error;  // what a send() threw; read after the chain ended
  };
  Chain chain_;
};

}  // namespace mwbench

// The bodies of the templates above: the measured loops.
#include "mwbench/detail/measurement_loops.hpp"
