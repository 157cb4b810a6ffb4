// The configuration, the cell's endpoint, participant and QoS.
#include "cyclonedds_session.hpp"

#include <cstdlib>

#include "dds/version.h"
#include "mwbench/dds/confine.hpp"
#include "mwbench/dds/unicast_config.hpp"

namespace cyclonedds {

namespace {}  // namespace

std::string use_config(const std::string& address, const std::vector<std::string>& peers) {
  // Cyclone's receive sockets, which it binds to the wildcard address, on
  // `address` too; and `address` an interface's, even 127.0.0.2.
  mwbench::dds::confine_to(address);
  // 99 participant indices (the default here), not Cyclone's 9: see
  // cyclonedds-loopback.xml.
  const std::string config = mwbench::dds::unicast_config(address, peers);
  if (::setenv("CYCLONEDDS_URI", config.c_str(), 1) != 0) {
    throw std::runtime_error("setenv CYCLONEDDS_URI failed");
  }
  return config;
}

Participant::Participant(const Endpoint& endpoint, int history_depth)
    : endpoint_(endpoint), history_depth_(history_depth) {
  participant_ =
      check(dds_create_participant(endpoint.domain, nullptr, nullptr), "dds_create_participant");
  try {
    ping_ = check(dds_create_topic(participant_, &mwbench_dds_Sample_desc,
                                   endpoint.ping_topic.c_str(), nullptr, nullptr),
                  "dds_create_topic (ping)");
    pong_ = check(dds_create_topic(participant_, &mwbench_dds_Sample_desc,
                                   endpoint.pong_topic.c_str(), nullptr, nullptr),
                  "dds_create_topic (pong)");
  } catch (...) {
    dds_delete(participant_);
    throw;
  }
}

Participant::~Participant() { dds_delete(participant_); }

nlohmann::json middleware_config(const std::string& config, const Participant& participant,
                                 Wait wait) {
  const Endpoint& endpoint = participant.endpoint();
  return {
      {"CYCLONEDDS_URI", config},
      {"domain_id", endpoint.domain},
      {"topics", {{"ping", endpoint.ping_topic}, {"pong", endpoint.pong_topic}}},
      {"type", "mwbench_dds::Sample (PingPong.idl)"},
      {"qos",
       {{"reliability", "reliable"},
        {"history", "keep_last " + std::to_string(participant.history_depth())},
        {"durability", "volatile"}}},
      {"wait", to_string(wait)},
      {"cyclonedds_version", DDS_VERSION},
  };
}

bool take_valid(dds_entity_t reader, void* into, dds_sample_info_t& info, const char* what) {
  for (;;) {
    if (check(dds_take(reader, &into, &info, 1, 1), what) == 0) return false;
    if (info.valid_data) return true;
  }
}

dds_entity_t create_reader(dds_entity_t parent, dds_entity_t topic, const dds_qos_t* qos, void* arg,
                           void (*on_data)(dds_entity_t, void*), const char* what) {
  dds_listener_t* listener = nullptr;
  if (arg != nullptr) {
    listener = dds_create_listener(arg);
    dds_lset_data_available(listener, on_data);
  }
  const dds_entity_t reader = dds_create_reader(parent, topic, qos, listener);
  if (listener != nullptr) dds_delete_listener(listener);  // the reader keeps a copy
  return check(reader, what);
}

void attach_reader(dds_entity_t waitset, dds_entity_t reader, const char* what) {
  const dds_entity_t condition =
      check(dds_create_readcondition(reader, DDS_ANY_STATE), "dds_create_readcondition");
  check(dds_waitset_attach(waitset, condition, 0), what);
}

}  // namespace cyclonedds
