// The subscribers of a cyclonedds fan-out (docs/driver-contract-fanout.md):
// each a reader of the event topic and a writer of the reply topic of its
// own. How they wait, answer and count is the DDS drivers' shared
// EventSubscribers (common/dds_event_subscribers.hpp); this class says it in
// Cyclone's C API.
#pragma once

#include "common/dds_event_subscribers.hpp"
#include "cyclonedds_fanout.hpp"

namespace cyclonedds {

class Subscribers;

// One subscriber: its entities and samples.
struct Subscriber : mwbench::common::SubscriberBase {
  Subscriber(Subscribers& owner, int number, std::size_t payload_bytes)
      : SubscriberBase(number), owner(owner), event(payload_bytes) {}
  Subscribers& owner;
  dds_entity_t reader = 0;
  dds_entity_t writer = 0;
  dds_entity_t waitset = 0;  // wait=waitset
  OwnedEvent event;
  mwbench_dds_Reply reply{};
  dds_sample_info_t info{};
};

class Subscribers final : public mwbench::common::EventSubscribers<Subscribers, Subscriber> {
 public:
  // As the skeleton asks (common/dds_event_subscribers.hpp).
  Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
              std::size_t payload_bytes, bool verify);
  ~Subscribers();

 private:
  MWBENCH_DDS_EVENT_SUBSCRIBERS_HOOKS(Subscribers, Subscriber)
  static void on_data_available(dds_entity_t reader, void* subscriber);

  dds_entity_t waitset_ = 0;  // serve(): the guard condition alone
  dds_entity_t guard_ = 0;    // triggered by stop(), attached to every waitset
};

}  // namespace cyclonedds
