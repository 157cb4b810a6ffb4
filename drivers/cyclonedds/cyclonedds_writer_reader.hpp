// The entities every end of the cyclonedds driver that writes one topic and
// reads another holds (client, echo, fan-out publisher): a writer, a reader
// with the listener its wait needs, and the waitset that wait=waitset blocks
// in, with the reader's read condition attached. Made together, deleted
// together: the reader first, which waits for a listener that is running, so
// its owner declares this after what the listener uses.
#pragma once

#include "cyclonedds_session.hpp"
#include "dds/dds.h"

namespace cyclonedds {

// One side of a WriterReader: the entity it is made under, its topic and
// QoS, and its name in error messages ("ping", "reply").
struct EntityPlan {
  dds_entity_t parent;
  dds_entity_t topic;
  const dds_qos_t* qos;
  const char* name;
};

class WriterReader {
 public:
  // Creates the writer, the reader and a waitset under `participant`. With
  // `listener_arg`, the reader's data-available listener calls
  // `on_data(reader, listener_arg)` on Cyclone's thread; with `in_waitset`,
  // a read condition of the reader is attached to waitset(). Throws naming
  // the entity that failed.
  WriterReader(dds_entity_t participant, const EntityPlan& writes, const EntityPlan& reads,
               void* listener_arg, void (*on_data)(dds_entity_t, void*), bool in_waitset);
  ~WriterReader();
  WriterReader(const WriterReader&) = delete;
  WriterReader& operator=(const WriterReader&) = delete;

  dds_entity_t writer() const noexcept { return writer_; }
  dds_entity_t reader() const noexcept { return reader_; }
  // For more conditions (an echo's guard).
  dds_entity_t waitset() const noexcept { return waitset_; }

  // Waits in waitset() for at most `timeout`; false on timeout. Throws on an
  // error.
  bool wait(dds_duration_t timeout);

 private:
  void delete_all() noexcept;

  dds_entity_t writer_ = 0;
  dds_entity_t reader_ = 0;
  dds_entity_t waitset_ = 0;
};

// The two ends of a ping-pong cell: the client writes pings and reads
// pongs, the echo writes pongs and reads pings.
enum class PingPongEnd { client, echo };

// The writer and reader of `end` in `participant`, both with EndpointQos of
// the participant's history depth;
// the rest as WriterReader's constructor.
WriterReader ping_pong_endpoints(Participant& participant, PingPongEnd end, void* listener_arg,
                                 void (*on_data)(dds_entity_t, void*), bool in_waitset);

}  // namespace cyclonedds
