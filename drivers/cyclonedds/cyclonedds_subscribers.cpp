// The subscribers in Cyclone's C API: entities, take, write and waitsets.
#include "cyclonedds_subscribers.hpp"

namespace cyclonedds {

Subscribers::Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
                         std::size_t payload_bytes, bool verify)
    : EventSubscribers(wait, {payload_bytes, verify}) {
  const EndpointQos qos;
  waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
  guard_ = check(dds_create_guardcondition(participant.handle()), "dds_create_guardcondition");
  check(dds_waitset_attach(waitset_, guard_, 0), "dds_waitset_attach (guard)");
  for (int k = 0; k < count; ++k) {
    auto& s =
        *subscribers_.emplace_back(std::make_unique<Subscriber>(*this, first + k, payload_bytes));
    s.reply.subscriber = s.number;
    s.writer = check(
        dds_create_writer(participant.publisher(), participant.reply_topic(), qos.get(), nullptr),
        "dds_create_writer (reply)");
    s.reader = create_reader(participant.subscriber(), participant.event_topic(), qos.get(),
                             wait == Wait::listener ? &s : nullptr, &Subscribers::on_data_available,
                             "dds_create_reader (event)");
    if (wait == Wait::waitset) {
      s.waitset = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
      attach_reader(s.waitset, s.reader, "dds_waitset_attach (event)");
      check(dds_waitset_attach(s.waitset, guard_, 0), "dds_waitset_attach (guard)");
    }
  }
}

Subscribers::~Subscribers() {
  halt();
  for (auto& s : subscribers_) {
    if (s->reader > 0) dds_delete(s->reader);  // its read condition with it
    if (s->waitset > 0) dds_delete(s->waitset);
    if (s->writer > 0) dds_delete(s->writer);
  }
  if (waitset_ > 0) dds_delete(waitset_);
  if (guard_ > 0) dds_delete(guard_);
}

void Subscribers::wake_all() noexcept {
  if (guard_ > 0) dds_set_guardcondition(guard_, true);
}

void Subscribers::block_until_woken() {
  check(dds_waitset_wait(waitset_, nullptr, 0, DDS_INFINITY), "dds_waitset_wait");
}

void Subscribers::detach_listeners() {
  // Waits for a listener that is running; none runs after.
  for (auto& s : subscribers_) dds_set_listener(s->reader, nullptr);
}

void Subscribers::wait_for_event(Subscriber& s) {
  check(dds_waitset_wait(s.waitset, nullptr, 0, DDS_INFINITY), "dds_waitset_wait");
}

void Subscribers::on_data_available(dds_entity_t, void* subscriber) {
  auto& s = *static_cast<Subscriber*>(subscriber);
  s.owner.answer_all(s);
}

bool Subscribers::take_event(Subscriber& s, mwbench::common::EventView& event) {
  if (!take_valid(s.reader, &s.event.get(), s.info, "dds_take (event)")) return false;
  const mwbench_dds_Event& taken = s.event.get();
  event = {taken.number, taken.payload._buffer, taken.payload._length};
  return true;
}

void Subscribers::send_reply(Subscriber& s, std::uint64_t event, bool intact) {
  s.reply.event_number = event;
  s.reply.status = intact ? 1 : 0;
  check(dds_write(s.writer, &s.reply), "dds_write (reply)");
}

}  // namespace cyclonedds
