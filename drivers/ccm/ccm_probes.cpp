// The probe build's recorder (ccm_probes.hpp). Compiled into
// mwbench-driver-ccm-probes only.
#include "ccm_probes.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <mwccm_glue/probe.hpp>
#include <stdexcept>

#include "mwbench/clock.hpp"

namespace ccm_driver {

namespace {

struct Record {
  std::uint64_t ns;
  ProbePoint point;
};

// Enough for the warm-up and samples of a white-box run (5 points per call
// at most on one side): 1 Mi records of 16 bytes per thread, 16 MiB each.
// A full buffer stops recording; write_probes() says how many were lost.
constexpr std::size_t kRecordsPerThread = std::size_t{1} << 20;
// Threads that may record: the measuring thread, or the ORB's threads that
// serve calls (one per connection, or the pool's).
constexpr int kThreads = 4;

struct Buffer {
  std::unique_ptr<Record[]> records;
  std::size_t used = 0;
  std::uint64_t dropped = 0;
};

Buffer buffers[kThreads];
std::atomic<int> buffers_taken{0};
thread_local Buffer* mine = nullptr;
thread_local bool no_buffer = false;

void glue_point(mwccm_glue::ProbePoint point) noexcept {
  switch (point) {
    case mwccm_glue::ProbePoint::glue_entry:
      probe(ProbePoint::glue_entry);
      break;
    case mwccm_glue::ProbePoint::executor_call:
      probe(ProbePoint::executor_call);
      break;
    case mwccm_glue::ProbePoint::executor_return:
      probe(ProbePoint::executor_return);
      break;
  }
}

}  // namespace

void probe(ProbePoint point) noexcept {
  const std::uint64_t now = mwbench::now_ns();
  if (mine == nullptr) {
    // A thread's first probe, in the warm-up: it takes a buffer for good.
    if (no_buffer) return;
    const int index = buffers_taken.fetch_add(1, std::memory_order_relaxed);
    if (index >= kThreads) {
      no_buffer = true;
      return;
    }
    mine = &buffers[index];
  }
  if (mine->used == kRecordsPerThread) {
    ++mine->dropped;
    return;
  }
  mine->records[mine->used++] = Record{now, point};
}

void start_probes() {
  for (Buffer& buffer : buffers) {
    buffer.records = std::make_unique<Record[]>(kRecordsPerThread);  // value-initialised: touched
  }
  mwccm_glue::probe_hook = &glue_point;
}

void write_probes(const std::string& path) {
  mwccm_glue::probe_hook = nullptr;
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write the probe file " + path);
  const int taken = std::min(buffers_taken.load(), kThreads);
  for (int t = 0; t < taken; ++t) {
    const Buffer& buffer = buffers[t];
    if (buffer.dropped != 0) out << "# thread " << t << " dropped " << buffer.dropped << "\n";
    for (std::size_t i = 0; i < buffer.used; ++i) {
      out << t << ' ' << static_cast<int>(buffer.records[i].point) << ' ' << buffer.records[i].ns
          << '\n';
    }
  }
  if (buffers_taken.load() > kThreads) out << "# more threads probed than buffers\n";
  if (!out.flush()) throw std::runtime_error("cannot write the probe file " + path);
}

}  // namespace ccm_driver
