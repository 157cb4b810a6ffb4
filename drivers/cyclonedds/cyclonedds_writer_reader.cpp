// A writer, a reader and their waitset in Cyclone's C API.
#include "cyclonedds_writer_reader.hpp"

#include <string>

namespace cyclonedds {

WriterReader::WriterReader(dds_entity_t participant, const EntityPlan& writes,
                           const EntityPlan& reads, void* listener_arg,
                           void (*on_data)(dds_entity_t, void*), bool in_waitset) {
  const auto named = [](const char* what, const char* name) {
    return std::string(what) + " (" + name + ")";
  };
  try {
    writer_ = check(dds_create_writer(writes.parent, writes.topic, writes.qos, nullptr),
                    named("dds_create_writer", writes.name).c_str());
    reader_ = create_reader(reads.parent, reads.topic, reads.qos, listener_arg, on_data,
                            named("dds_create_reader", reads.name).c_str());
    waitset_ = check(dds_create_waitset(participant), "dds_create_waitset");
    if (in_waitset) {
      attach_reader(waitset_, reader_, named("dds_waitset_attach", reads.name).c_str());
    }
  } catch (...) {
    delete_all();
    throw;
  }
}

WriterReader::~WriterReader() { delete_all(); }

void WriterReader::delete_all() noexcept {
  if (reader_ > 0) dds_delete(reader_);  // its read condition with it
  if (waitset_ > 0) dds_delete(waitset_);
  if (writer_ > 0) dds_delete(writer_);
}

bool WriterReader::wait(dds_duration_t timeout) {
  return check(dds_waitset_wait(waitset_, nullptr, 0, timeout), "dds_waitset_wait") != 0;
}

WriterReader ping_pong_endpoints(Participant& participant, PingPongEnd end, void* listener_arg,
                                 void (*on_data)(dds_entity_t, void*), bool in_waitset) {
  const EndpointQos qos(participant.history_depth());
  const EntityPlan ping{participant.handle(), participant.ping_topic(), qos.get(), "ping"};
  const EntityPlan pong{participant.handle(), participant.pong_topic(), qos.get(), "pong"};
  const bool client = end == PingPongEnd::client;
  return WriterReader(participant.handle(), client ? ping : pong, client ? pong : ping,
                      listener_arg, on_data, in_waitset);
}

}  // namespace cyclonedds
