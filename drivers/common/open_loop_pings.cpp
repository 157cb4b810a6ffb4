// The bookkeeping of an open-loop ping-pong client (open_loop_pings.hpp).
#include "common/open_loop_pings.hpp"

#include <string>

#include "mwbench/clock.hpp"

namespace mwbench::common {

OpenLoopPings::OpenLoopPings(Measurement& measurement, std::uint64_t first_seq)
    : measurement_(measurement),
      first_seq_(first_seq),
      stamps_(measurement.options().warmup + measurement.options().samples) {}

PingStamp OpenLoopPings::ping(std::uint64_t call) noexcept {
  const PingStamp ping{first_seq_ + call, mwbench::now_ns(), 0};
  if (call < stamps_.size()) stamps_[call].store(ping.stamp, std::memory_order_relaxed);
  return ping;
}

void OpenLoopPings::answered(const PingStamp& pong) noexcept {
  if (pong.seq < first_seq_) return;  // a late answer to a ping of connect()
  const std::uint64_t call = pong.seq - first_seq_;
  const std::uint64_t stamp =
      call < stamps_.size() ? stamps_[call].exchange(0, std::memory_order_relaxed) : 0;
  if (stamp == 0) {
    measurement_.fail("pong " + std::to_string(pong.seq) +
                      " answers no ping sent, or a ping already answered");
  } else if (pong.stamp != stamp) {
    measurement_.fail("pong " + std::to_string(pong.seq) + " carries the timestamp " +
                      std::to_string(pong.stamp) + ", its ping " + std::to_string(stamp));
  } else if (pong.status != 1) {
    measurement_.fail("octets: the server found a payload mismatch (verify=1)");
  } else {
    measurement_.completed(call);
  }
}

}  // namespace mwbench::common
