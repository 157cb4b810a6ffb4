// What both ends of the fastdds fan-out share (docs/driver-contract-fanout.md;
// README, "Fan-out"): the endpoint of a subscriber process, the
// participant with the event and reply topics, and the partitions that keep
// concurrent cells apart.
//
// Why one domain and a partition per subscriber process:
// common/dds_endpoint.hpp. A udp publisher names each subscriber process's
// address as an initial peer.
#pragma once

#include <cstdint>
#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fastdds_session.hpp"

namespace fastdds_driver {

// One subscriber process's endpoint, in kFanoutDomain
// (drivers/common/dds_endpoint.hpp).
using mwbench::common::FanoutEndpoint;
using mwbench::common::kFanoutDomain;

// A participant in `domain` created from the fan-out profile of the
// transport (udp: mwbench_udp_fanout, whose discovery reaches participant ids
// 0-99; shm: mwbench_shm; inproc: mwbench_udp) and placed on `network`,
// with the event and reply topics, and a Publisher and a Subscriber whose
// partition QoS lists
// `partitions` (a subscriber process: its own; the publisher: every
// subscriber process's). Deleting it deletes everything created under it.
class FanoutParticipant {
 public:
  FanoutParticipant(std::uint32_t domain, Transport transport, const Network& network,
                    std::vector<std::string> partitions);
  FanoutParticipant(const FanoutParticipant&) = delete;
  FanoutParticipant& operator=(const FanoutParticipant&) = delete;

  dds::Topic* event_topic() const noexcept { return event_; }
  dds::Topic* reply_topic() const noexcept { return reply_; }
  dds::Publisher* publisher() const noexcept { return publisher_; }
  dds::Subscriber* subscriber() const noexcept { return subscriber_; }
  std::uint32_t domain() const noexcept { return domain_; }
  Transport transport() const noexcept { return transport_; }
  const Network& network() const noexcept { return network_; }
  const std::vector<std::string>& partitions() const noexcept { return partitions_; }

 private:
  std::uint32_t domain_;
  Transport transport_;
  Network network_;
  std::vector<std::string> partitions_;
  OwnedParticipant participant_;
  dds::TypeSupport event_type_;
  dds::TypeSupport reply_type_;
  dds::Topic* event_ = nullptr;
  dds::Topic* reply_ = nullptr;
  dds::Publisher* publisher_ = nullptr;
  dds::Subscriber* subscriber_ = nullptr;
};

// The QoS of the publisher's reply reader: as reader_qos(), but KEEP_ALL, so
// that the replies of N writers to one keyless topic wait side by side (a
// late answer to a handshake probe never displaces a reply).
dds::DataReaderQos reply_reader_qos();

// How the middleware was configured for a fan-out, for the result header.
nlohmann::json fanout_config(const std::string& profiles, const FanoutParticipant& participant,
                             Wait wait, const nlohmann::json& stale_shm);

}  // namespace fastdds_driver
