// The serving end in Cyclone's C API: entities, take, write and waitset.
#include "cyclonedds_echo.hpp"

namespace cyclonedds {

Echo::Echo(Participant& participant, Wait wait, std::size_t payload_bytes, bool verify)
    : PingEcho(wait, {payload_bytes, verify}),
      ping_(payload_bytes),
      endpoints_(ping_pong_endpoints(participant, PingPongEnd::echo,
                                     answers_in_listener(wait) ? this : nullptr,
                                     &Echo::on_data_available, wait == Wait::waitset)) {
  guard_ = check(dds_create_guardcondition(participant.handle()), "dds_create_guardcondition");
  check(dds_waitset_attach(endpoints_.waitset(), guard_, 0), "dds_waitset_attach (guard)");
}

Echo::~Echo() {
  dds_waitset_detach(endpoints_.waitset(), guard_);
  dds_delete(guard_);
}

void Echo::on_data_available(dds_entity_t, void* echo) { static_cast<Echo*>(echo)->answer_all(); }

bool Echo::take_ping(mwbench::common::PingView& ping) {
  if (!take_valid(endpoints_.reader(), &ping_.get(), info_, "dds_take (ping)")) return false;
  const mwbench_dds_Sample& taken = ping_.get();
  ping = {taken.seq, taken.stamp, taken.payload._buffer, taken.payload._length};
  return true;
}

void Echo::send_pong(const mwbench::common::PingStamp& pong) {
  pong_.seq = pong.seq;
  pong_.stamp = pong.stamp;
  pong_.status = static_cast<std::uint8_t>(pong.status);
  check(dds_write(endpoints_.writer(), &pong_), "dds_write (pong)");
}

bool Echo::pong_reader_matched() noexcept {
  dds_publication_matched_status_t matched{};
  return dds_get_publication_matched_status(endpoints_.writer(), &matched) == DDS_RETCODE_OK &&
         matched.current_count > 0;
}

bool Echo::pongs_acknowledged() noexcept {
  return dds_wait_for_acks(endpoints_.writer(), 0) == DDS_RETCODE_OK;
}

void Echo::wait_for_pings(bool refused) {
  endpoints_.wait(refused ? DDS_MSECS(100) : DDS_INFINITY);
}

void Echo::wake() noexcept { dds_set_guardcondition(guard_, true); }

// Nothing to do: from now on, wait_for_pings() waits 100 ms at most.
void Echo::refused_once() noexcept {}

}  // namespace cyclonedds
