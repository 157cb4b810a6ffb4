// The fan-out's endpoint, participant, partitions and reply QoS.
#include "cyclonedds_fanout.hpp"

#include <unistd.h>

#include <stdexcept>
#include <string_view>

#include "dds/version.h"

namespace cyclonedds {

namespace {

constexpr const char* kEventTopic = "mwbench_fanout_event";
constexpr const char* kReplyTopic = "mwbench_fanout_reply";

}  // namespace

FanoutEndpoint FanoutEndpoint::for_process(const std::string& address) {
  return {kFanoutDomain, "mwbench_fanout_" + std::to_string(::getpid()), kEventTopic, kReplyTopic,
          address};
}

FanoutEndpoint FanoutEndpoint::parse(const std::string& text) {
  FanoutEndpoint e;
  const std::string_view fields =
      std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
  const std::string domain = endpoint_field(fields, "domain");
  e.partition = endpoint_field(fields, "partition");
  e.event_topic = endpoint_field(fields, "event");
  e.reply_topic = endpoint_field(fields, "reply");
  e.address = endpoint_field(fields, "address");
  if (!text.starts_with("dds:") || domain.empty() || domain.size() > 3 || e.partition.empty() ||
      e.event_topic.empty() || e.reply_topic.empty() || e.address.empty() ||
      domain.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;partition=P;event=TOPIC;reply=TOPIC;"
                             "address=IPV4 (a fan-out subscriber process's)");
  }
  e.domain = static_cast<std::uint32_t>(std::stoul(domain));
  return e;
}

std::string FanoutEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";partition=" + partition +
         ";event=" + event_topic + ";reply=" + reply_topic + ";address=" + address;
}

FanoutParticipant::FanoutParticipant(std::uint32_t domain, std::vector<std::string> partitions)
    : domain_(domain), partitions_(std::move(partitions)) {
  participant_ = check(dds_create_participant(domain, nullptr, nullptr), "dds_create_participant");
  dds_qos_t* qos = dds_create_qos();
  try {
    event_ = check(
        dds_create_topic(participant_, &mwbench_dds_Event_desc, kEventTopic, nullptr, nullptr),
        "dds_create_topic (event)");
    reply_ = check(
        dds_create_topic(participant_, &mwbench_dds_Reply_desc, kReplyTopic, nullptr, nullptr),
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

OwnedEvent::OwnedEvent(std::size_t capacity) : buffer_(capacity) {
  sample_.payload._buffer = buffer_.data();
  sample_.payload._maximum = static_cast<std::uint32_t>(capacity);
  sample_.payload._length = 0;
  sample_.payload._release = false;  // ours: Cyclone must neither free nor grow it
}

OwnedEvent::~OwnedEvent() {
  if (sample_.payload._release) dds_free(sample_.payload._buffer);
}

nlohmann::json fanout_config(const std::string& config, const FanoutParticipant& participant,
                             Wait wait) {
  return {
      {"CYCLONEDDS_URI", config},
      {"domain_id", participant.domain()},
      {"topics", {{"event", kEventTopic}, {"reply", kReplyTopic}}},
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
