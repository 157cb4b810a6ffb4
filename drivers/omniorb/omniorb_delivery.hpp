// --option delivery_time=1 on the client: each measured call's delivery, the
// client's clock read just before it sends to the servant's entry (the
// server's delivery board, common/delivery_board.hpp), as the named series
// `delivery`. The read is inside the harness's timed region, so a call's
// delivery never exceeds its round trip. One call in flight at a time
// (--threads 1): the board's latest entry is this call's, which the count
// of entries confirms.
#pragma once

#include <cstdint>
#include <string>

#include "common/delivery_board.hpp"
#include "mwbench/clock.hpp"
#include "mwbench/measurement.hpp"

namespace omniorb_driver {

class DeliveryTimer {
 public:
  DeliveryTimer() = default;  // delivery_time=0: the call alone
  DeliveryTimer(const mwbench::common::DeliveryBoard& board, mwbench::Measurement& m)
      : board_(&board), series_(&m.named_series("delivery")), measurement_(&m) {}

  // Makes the call (which returns once its reply is in) and records its delivery.
  template <class Call>
  void operator()(Call&& call) const {
    if (board_ == nullptr) {
      call();
      return;
    }
    const std::uint32_t expected = board_->entries() + 1;
    const std::uint64_t sent_ns = mwbench::now_ns();
    call();
    record(expected, sent_ns);
  }

 private:
  void record(std::uint32_t expected, std::uint64_t sent_ns) const {
    const std::uint32_t entries = board_->entries();
    if (entries != expected) {
      measurement_->fail("delivery board: " + std::to_string(entries) +
                         " servant entries after a call, expected " + std::to_string(expected) +
                         " (does another client call this server?)");
      return;
    }
    series_->record(board_->entry_ns() - sent_ns);
  }

  const mwbench::common::DeliveryBoard* board_ = nullptr;
  mwbench::NamedSeries* series_ = nullptr;
  mwbench::Measurement* measurement_ = nullptr;
};

}  // namespace omniorb_driver
