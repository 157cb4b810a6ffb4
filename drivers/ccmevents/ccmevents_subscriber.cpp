#include "ccmevents_subscriber.hpp"

namespace ccmevents {

void SubscriberLogic::on_event(const CcmEvents::Update& event) {
  const std::uint64_t number = event.number();
  if (number == 0) {  // a probe of the handshake: answered, not an event
    replies_->reply(number_, 0, true);
    return;
  }
  // Counted before checked: the next number is the count plus one.
  const bool ok = !verify_ || intact(event);
  received_.fetch_add(1, std::memory_order_relaxed);
  replies_->reply(number_, number, ok);
}

// Every event once and in order: the first is 1, each the previous plus one.
bool SubscriberLogic::intact(const CcmEvents::Update& event) const {
  if (event.number() != received() + 1) return false;
  const CcmEvents::Octets& payload = event.payload();
  if (payload.length() != payload_bytes_) return false;
  const CORBA::Octet* bytes = payload.get_buffer();
  for (CORBA::ULong i = 0; i < payload.length(); ++i) {
    if (bytes[i] != pattern_byte(i)) return false;
  }
  return true;
}

}  // namespace ccmevents
