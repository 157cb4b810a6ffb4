// The fan-out's participant, partitions and reply QoS.
#include "cyclonedds_fanout.hpp"

#include <stdexcept>

#include "dds/version.h"

namespace cyclonedds {

namespace {}  // namespace

FanoutParticipant::FanoutParticipant(std::uint32_t domain, std::vector<std::string> partitions)
    : domain_(domain), partitions_(std::move(partitions)) {
  participant_ = check(dds_create_participant(domain, nullptr, nullptr), "dds_create_participant");
  dds_qos_t* qos = dds_create_qos();
  try {
    event_ = check(dds_create_topic(participant_, &mwbench_dds_Event_desc,
                                    FanoutEndpoint::kEventTopic, nullptr, nullptr),
                   "dds_create_topic (event)");
    reply_ = check(dds_create_topic(participant_, &mwbench_dds_Reply_desc,
                                    FanoutEndpoint::kReplyTopic, nullptr, nullptr),
                   "dds_create_topic (reply)");
    std::vector<const char*> names;
    for (const std::string& p : partitions_) names.push_back(p.c_str());
    dds_qset_partition(qos, static_cast<std::uint32_t>(names.size()), names.data());
    publisher_ = check(dds_create_publisher(participant_, qos, nullptr), "dds_create_publisher");
    subscriber_ = check(dds_create_subscriber(participant_, qos, nullptr), "dds_create_subscriber");
  } catch (...) {
    dds_delete_qos(qos);
    dds_delete(participant_);
    throw;
  }
  dds_delete_qos(qos);
}

FanoutParticipant::~FanoutParticipant() { dds_delete(participant_); }

nlohmann::json fanout_config(const std::string& config, const FanoutParticipant& participant,
                             Wait wait) {
  return {
      {"CYCLONEDDS_URI", config},
      {"domain_id", participant.domain()},
      {"topics", {{"event", FanoutEndpoint::kEventTopic}, {"reply", FanoutEndpoint::kReplyTopic}}},
      {"partitions", participant.partitions()},
      {"types", "mwbench_dds::Event, mwbench_dds::Reply (Fanout.idl)"},
      {"qos",
       {{"reliability", "reliable"},
        {"history", "keep_last 1 (reply reader of the publisher: keep_all)"},
        {"durability", "volatile"}}},
      {"wait", to_string(wait)},
      {"cyclonedds_version", DDS_VERSION},
  };
}

}  // namespace cyclonedds
