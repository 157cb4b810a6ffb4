// The subscribers of a fastdds fan-out (docs/driver-contract-fanout.md):
// each a DataReader of the event topic and a DataWriter of the reply topic of
// its own. How they wait, answer and count is the DDS drivers' shared
// EventSubscribers (common/dds_event_subscribers.hpp); this class says it in
// Fast DDS's API. Each subscriber's WaitSet holds a GuardCondition of its own
// that stop() triggers.
#pragma once

#include <fastdds/dds/core/condition/GuardCondition.hpp>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>

#include "Fanout.h"
#include "common/dds_event_subscribers.hpp"
#include "fastdds_fanout.hpp"

namespace fastdds_driver {

class Subscribers;

// One subscriber: its entities and samples, and the listener of wait=listener.
class Subscriber : public mwbench::common::SubscriberBase, public dds::DataReaderListener {
 public:
  Subscriber(Subscribers& owner, int number) : SubscriberBase(number), owner(owner) {}
  void on_data_available(dds::DataReader* /*reader*/) override;

  Subscribers& owner;
  dds::DataReader* reader = nullptr;
  dds::DataWriter* writer = nullptr;
  dds::ReadCondition* condition = nullptr;  // wait=waitset
  dds::GuardCondition guard;                // triggered by stop()
  dds::WaitSet waitset;
  dds::ConditionSeq active;
  mwbench_fastdds::Event event;
  mwbench_fastdds::Reply reply;
  dds::SampleInfo info;
};

class Subscribers final : public mwbench::common::EventSubscribers<Subscribers, Subscriber> {
 public:
  // As the skeleton asks (common/dds_event_subscribers.hpp).
  Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
              std::size_t payload_bytes, bool verify);
  ~Subscribers();

 private:
  MWBENCH_DDS_EVENT_SUBSCRIBERS_HOOKS(Subscribers, Subscriber)
  friend class Subscriber;  // its listener calls answer_all()

  FanoutParticipant& participant_;
  dds::GuardCondition guard_;  // serve(): triggered by stop()
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;
};

}  // namespace fastdds_driver
