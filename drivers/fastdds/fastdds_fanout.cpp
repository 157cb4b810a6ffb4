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
      domain.find_first_not_of("0123456789") != std::string::npos || std::stoul(domain) > 232) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;partition=P;event=TOPIC;reply=TOPIC;"
                             "address=IPV4 (a fan-out subscriber process's, N at most 232)");
  }
  e.domain = static_cast<std::uint32_t>(std::stoul(domain));
  return e;
}

std::string FanoutEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";partition=" + partition +
         ";event=" + event_topic + ";reply=" + reply_topic + ";address=" + address;
}

namespace {

// The publisher's and subscriber's partitions: those of the fan-out's subscriber processes.
template <class Qos>
Qos with_partitions(Qos qos, const std::vector<std::string>& partitions) {
  for (const std::string& p : partitions) qos.partition().push_back(p.c_str());
  return qos;
}

}  // namespace

FanoutParticipant::FanoutParticipant(std::uint32_t domain, Transport transport,
                                     const Network& network, std::vector<std::string> partitions)
    : domain_(domain),
      transport_(transport),
      network_(network),
      partitions_(std::move(partitions)),
      participant_(domain, fanout_profile(transport), network),
      event_type_(new mwbench_fastdds::EventPubSubType()),
      reply_type_(new mwbench_fastdds::ReplyPubSubType()),
      event_(participant_.topic(kEventTopic, event_type_)),
      reply_(participant_.topic(kReplyTopic, reply_type_)),
      publisher_(participant_.publisher(with_partitions(dds::PUBLISHER_QOS_DEFAULT, partitions_))),
      subscriber_(
          participant_.subscriber(with_partitions(dds::SUBSCRIBER_QOS_DEFAULT, partitions_))) {}

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
      {"transport", transport_text(transport, participant.network())},
      {"network", transport == Transport::shm ? nlohmann::json() : participant.network().to_json()},
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
