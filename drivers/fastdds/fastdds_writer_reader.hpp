// The entities every end of the fastdds driver that writes one topic and
// reads another holds (client, echo, fan-out publisher): a DataWriter, a
// DataReader with the listener its wait needs, and the WaitSet that
// wait=waitset blocks in, with the reader's ReadCondition attached. Made
// together, deleted together: the reader first, which waits for a listener
// that is running, so its owner declares this after what the listener uses.
#pragma once

#include <cstdint>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/publisher/qos/DataWriterQos.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/subscriber/qos/DataReaderQos.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <string>

#include "fastdds_session.hpp"

namespace fastdds_driver {

// One side of a WriterReader: where its entity lives, its topic and QoS,
// and its name in error messages ("ping", "reply").
template <class Parent, class Qos>
struct EntityPlan {
  Parent* parent;
  dds::Topic* topic;
  Qos qos;
  const char* name;
};
using WriterPlan = EntityPlan<dds::Publisher, dds::DataWriterQos>;
using ReaderPlan = EntityPlan<dds::Subscriber, dds::DataReaderQos>;

class WriterReader {
 public:
  // Creates the writer and the reader; with `listener`, the reader hears
  // data_available; with `in_waitset`, its ReadCondition is attached to
  // waitset(). Throws naming the entity that failed.
  WriterReader(const WriterPlan& writes, const ReaderPlan& reads, dds::DataReaderListener* listener,
               bool in_waitset);
  ~WriterReader();
  WriterReader(const WriterReader&) = delete;
  WriterReader& operator=(const WriterReader&) = delete;

  dds::DataWriter* writer() const noexcept { return writer_; }
  dds::DataReader* reader() const noexcept { return reader_; }
  // For more conditions (an echo's guard); detach them before this goes.
  dds::WaitSet& waitset() noexcept { return waitset_; }

  // Waits in waitset() for at most `timeout`; false on timeout. Throws on an
  // error. Allocates nothing (the active conditions' capacity is reserved).
  bool wait(const Duration& timeout);
  bool wait(std::int64_t timeout_ns);

 private:
  dds::Publisher* const publisher_;
  dds::Subscriber* const subscriber_;
  const std::string wait_what_;  // "WaitSet::wait (<reader's name>)"
  dds::DataWriter* writer_ = nullptr;
  dds::DataReader* reader_ = nullptr;
  dds::ReadCondition* condition_ = nullptr;  // in_waitset
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;
};

}  // namespace fastdds_driver
