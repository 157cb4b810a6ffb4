// The fan-out's participant, partitions and reply QoS.
#include "fastdds_fanout.hpp"

#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/qos/PublisherQos.hpp>
#include <fastdds/dds/subscriber/qos/SubscriberQos.hpp>
#include <stdexcept>

#include "FanoutPubSubTypes.h"

namespace fastdds_driver {

namespace {

// The profile of fastdds-loopback.xml a fan-out's participant is made from.
constexpr mwbench::NameTable<Transport, 3> kFanoutProfiles{{{{Transport::udp, "mwbench_udp_fanout"},
                                                             {Transport::shm, "mwbench_shm"},
                                                             {Transport::inproc, "mwbench_udp"}}}};

}  // namespace

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
      participant_(domain, kFanoutProfiles.name(transport), network),
      event_type_(new mwbench_fastdds::EventPubSubType()),
      reply_type_(new mwbench_fastdds::ReplyPubSubType()),
      event_(participant_.topic(FanoutEndpoint::kEventTopic, event_type_)),
      reply_(participant_.topic(FanoutEndpoint::kReplyTopic, reply_type_)),
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
      {"participant_profile", kFanoutProfiles.name(transport)},
      {"transport", transport_text(transport, participant.network())},
      {"network", transport == Transport::shm ? nlohmann::json() : participant.network().to_json()},
      {"domain_id", participant.domain()},
      {"topics", {{"event", FanoutEndpoint::kEventTopic}, {"reply", FanoutEndpoint::kReplyTopic}}},
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
