// The fan-out's endpoint, participant, partitions and reply QoS.
#include "fastdds_fanout.hpp"

#include <unistd.h>

#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/qos/PublisherQos.hpp>
#include <fastdds/dds/subscriber/qos/SubscriberQos.hpp>
#include <stdexcept>
#include <string_view>

#include "FanoutPubSubTypes.h"

namespace fastdds_driver {

namespace {

constexpr const char* kEventTopic = "mwbench_fanout_event";
constexpr const char* kReplyTopic = "mwbench_fanout_reply";

const char* fanout_profile(Transport transport) noexcept {
  switch (transport) {
    case Transport::udp:
      return "mwbench_udp_fanout";
    case Transport::shm:
      return "mwbench_shm";
    case Transport::inproc:
      return "mwbench_udp";
  }
  return "?";
}

}  // namespace

FanoutEndpoint FanoutEndpoint::for_process() {
  return {kFanoutDomain, "mwbench_fanout_" + std::to_string(::getpid()), kEventTopic, kReplyTopic};
}

FanoutEndpoint FanoutEndpoint::parse(const std::string& text) {
  FanoutEndpoint e;
  const std::string_view fields =
      std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
  const std::string domain = endpoint_field(fields, "domain");
  e.partition = endpoint_field(fields, "partition");
  e.event_topic = endpoint_field(fields, "event");
  e.reply_topic = endpoint_field(fields, "reply");
  if (!text.starts_with("dds:") || domain.empty() || domain.size() > 3 || e.partition.empty() ||
      e.event_topic.empty() || e.reply_topic.empty() ||
      domain.find_first_not_of("0123456789") != std::string::npos || std::stoul(domain) > 232) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;partition=P;event=TOPIC;reply=TOPIC (a "
                             "fan-out subscriber process's, N at most 232)");
  }
  e.domain = static_cast<std::uint32_t>(std::stoul(domain));
  return e;
}

std::string FanoutEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";partition=" + partition +
         ";event=" + event_topic + ";reply=" + reply_topic;
}

FanoutParticipant::FanoutParticipant(std::uint32_t domain, Transport transport,
                                     std::vector<std::string> partitions)
    : domain_(domain),
      transport_(transport),
      partitions_(std::move(partitions)),
      event_type_(new mwbench_fastdds::EventPubSubType()),
      reply_type_(new mwbench_fastdds::ReplyPubSubType()) {
  dds::DomainParticipantFactory* factory = dds::DomainParticipantFactory::get_instance();
  participant_ = check(factory->create_participant_with_profile(
                           static_cast<dds::DomainId_t>(domain), fanout_profile(transport)),
                       "create_participant_with_profile");
  try {
    check(event_type_.register_type(participant_), "register_type (event)");
    check(reply_type_.register_type(participant_), "register_type (reply)");
    event_ = check(participant_->create_topic(kEventTopic, event_type_.get_type_name(),
                                              dds::TOPIC_QOS_DEFAULT),
                   "create_topic (event)");
    reply_ = check(participant_->create_topic(kReplyTopic, reply_type_.get_type_name(),
                                              dds::TOPIC_QOS_DEFAULT),
                   "create_topic (reply)");
    dds::PublisherQos publisher_qos = dds::PUBLISHER_QOS_DEFAULT;
    dds::SubscriberQos subscriber_qos = dds::SUBSCRIBER_QOS_DEFAULT;
    for (const std::string& p : partitions_) {
      publisher_qos.partition().push_back(p.c_str());
      subscriber_qos.partition().push_back(p.c_str());
    }
    publisher_ = check(participant_->create_publisher(publisher_qos), "create_publisher");
    subscriber_ = check(participant_->create_subscriber(subscriber_qos), "create_subscriber");
  } catch (...) {
    participant_->delete_contained_entities();
    factory->delete_participant(participant_);
    throw;
  }
}

FanoutParticipant::~FanoutParticipant() {
  participant_->delete_contained_entities();
  dds::DomainParticipantFactory::get_instance()->delete_participant(participant_);
}

dds::DataReaderQos reply_reader_qos() {
  dds::DataReaderQos qos = reader_qos();
  qos.history().kind = dds::KEEP_ALL_HISTORY_QOS;
  return qos;
}

nlohmann::json fanout_config(const std::string& profiles, const FanoutParticipant& participant,
                             Wait wait, const nlohmann::json& stale_shm) {
  const Transport transport = participant.transport();
  return {
      {"profiles_file", profiles},
      {"participant_profile", fanout_profile(transport)},
      {"transport", transport == Transport::inproc ? "intra-process delivery (discovery on "
                                                     "UDPv4 127.0.0.1)"
                    : transport == Transport::shm  ? "SHM only (builtin transports off)"
                                                   : "UDPv4 on 127.0.0.1 only (builtin "
                                                     "transports off)"},
      {"domain_id", participant.domain()},
      {"topics", {{"event", kEventTopic}, {"reply", kReplyTopic}}},
      {"partitions", participant.partitions()},
      {"types", "mwbench_fastdds::Event, mwbench_fastdds::Reply (Fanout.idl)"},
      {"qos",
       {{"reliability", "reliable"},
        {"history", "keep_last 1 (reply reader of the publisher: keep_all)"},
        {"durability", "volatile"},
        {"publish_mode", "synchronous"},
        {"data_sharing", "off"}}},
      {"wait", to_string(wait)},
      {"stale_shm", stale_shm},
  };
}

}  // namespace fastdds_driver
