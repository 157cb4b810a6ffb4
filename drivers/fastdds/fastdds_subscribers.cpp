// The subscribers in Fast DDS's API: entities, take, write and WaitSets.
#include "fastdds_subscribers.hpp"

#include <stdexcept>

namespace fastdds_driver {

Subscribers::Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
                         std::size_t payload_bytes, bool verify)
    : EventSubscribers(wait, {payload_bytes, verify}), participant_(participant) {
  active_.reserve(4);
  check(waitset_.attach_condition(guard_), "attach_condition (guard)");
  for (int k = 0; k < count; ++k) {
    auto& s = *subscribers_.emplace_back(std::make_unique<Subscriber>(*this, first + k));
    s.event.payload().reserve(payload_bytes);  // taking an event allocates nothing
    s.reply.subscriber(s.number);
    s.active.reserve(4);
    s.writer = check(participant.publisher()->create_datawriter(participant.reply_topic(),
                                                                writer_qos(), nullptr),
                     "create_datawriter (reply)");
    s.reader = create_reader(participant.subscriber(), participant.event_topic(), reader_qos(),
                             wait == Wait::listener ? &s : nullptr, "create_datareader (event)");
    if (wait == Wait::waitset) {
      s.condition = attach_reader(s.waitset, s.reader, "attach_condition (event)");
      check(s.waitset.attach_condition(s.guard), "attach_condition (guard)");
    }
  }
}

void Subscriber::on_data_available(dds::DataReader* /*reader*/) { owner.answer_all(*this); }

Subscribers::~Subscribers() {
  halt();
  for (auto& s : subscribers_) {
    if (wait() == Wait::waitset) s->waitset.detach_condition(s->guard);
    delete_endpoints(participant_.subscriber(), s->reader, s->condition, s->waitset,
                     participant_.publisher(), s->writer);
  }
  waitset_.detach_condition(guard_);
}

void Subscribers::wake_all() noexcept {
  guard_.set_trigger_value(true);
  for (auto& s : subscribers_) s->guard.set_trigger_value(true);
}

void Subscribers::block_until_woken() {
  const ReturnCode ret = waitset_.wait(active_, eprosima::fastrtps::c_TimeInfinite);
  if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (stop)");
}

// Nothing to do: deleting a reader waits for its listener (~Subscribers).
void Subscribers::detach_listeners() {}

void Subscribers::wait_for_event(Subscriber& s) {
  const ReturnCode ret = s.waitset.wait(s.active, eprosima::fastrtps::c_TimeInfinite);
  if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (event)");
}

bool Subscribers::take_event(Subscriber& s, mwbench::common::EventView& event) {
  if (!take_valid(s.reader, s.event, s.info, "DataReader::take_next_sample (event)")) return false;
  const std::vector<std::uint8_t>& payload = s.event.payload();
  event = {s.event.number(), payload.data(), payload.size()};
  return true;
}

void Subscribers::send_reply(Subscriber& s, std::uint64_t event, bool intact) {
  s.reply.event_number(event);
  s.reply.status(intact ? 1 : 0);
  if (!s.writer->write(&s.reply)) throw std::runtime_error("DataWriter::write (reply) failed");
}

}  // namespace fastdds_driver
