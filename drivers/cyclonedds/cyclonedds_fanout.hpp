// What both ends of the cyclonedds fan-out share
// (docs/driver-contract-fanout.md; README, "Fan-out"): the endpoint of a
// subscriber process, the participant with the event and reply topics, the
// partitions that keep concurrent cells apart, and the event sample with a
// payload of its own.
//
// Why one domain and a partition per subscriber process:
// common/dds_endpoint.hpp. The publisher names each subscriber process's
// address as a unicast peer.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "Fanout.h"
#include "cyclonedds_session.hpp"
#include "dds/dds.h"

namespace cyclonedds {

// One subscriber process's endpoint, in kFanoutDomain
// (drivers/common/dds_endpoint.hpp).
using mwbench::common::FanoutEndpoint;
using mwbench::common::kFanoutDomain;

// A participant in kFanoutDomain with the event and reply topics, and a
// publisher and a subscriber entity whose partition QoS lists `partitions`
// (a subscriber process: its own; the publisher: every subscriber process's).
class FanoutParticipant {
 public:
  FanoutParticipant(std::uint32_t domain, std::vector<std::string> partitions);
  ~FanoutParticipant();
  FanoutParticipant(const FanoutParticipant&) = delete;
  FanoutParticipant& operator=(const FanoutParticipant&) = delete;

  dds_entity_t handle() const noexcept { return participant_; }
  dds_entity_t event_topic() const noexcept { return event_; }
  dds_entity_t reply_topic() const noexcept { return reply_; }
  dds_entity_t publisher() const noexcept { return publisher_; }
  dds_entity_t subscriber() const noexcept { return subscriber_; }
  std::uint32_t domain() const noexcept { return domain_; }
  const std::vector<std::string>& partitions() const noexcept { return partitions_; }

 private:
  std::uint32_t domain_;
  std::vector<std::string> partitions_;
  dds_entity_t participant_ = 0;
  dds_entity_t event_ = 0;
  dds_entity_t reply_ = 0;
  dds_entity_t publisher_ = 0;
  dds_entity_t subscriber_ = 0;
};

// The QoS of the publisher's reply reader: as EndpointQos, but KEEP_ALL, so
// that the replies of N writers to one keyless topic wait side by side (a
// late answer to a handshake probe never displaces a reply).
class ReplyReaderQos : public mwbench::dds::Qos {
 public:
  ReplyReaderQos() : Qos({.reliable = true, .history_depth = 0}) {}
};

// An event whose payload buffer is allocated here.
using OwnedEvent = Owned<mwbench_dds_Event>;

// How the middleware was configured for a fan-out, for the result header.
nlohmann::json fanout_config(const std::string& config, const FanoutParticipant& participant,
                             Wait wait);

}  // namespace cyclonedds
