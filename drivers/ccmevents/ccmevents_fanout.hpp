// One process's part of a fan-out, as a layer builds it: the component
// layer (ccmevents_components.*: mwccm components assembled as a deployment
// plan would, the container choosing the delivery) or the object layer
// (ccmevents_objects.*: plain objects using the same event channel, or the
// same CORBA consumer interface, directly: the object-oriented counterpart
// of the paper's study). Both do the same for every cell:
//
//   subscriber process          host_subscribers, subscriber_fields (its endpoint)
//   publisher process           connect_publisher(every subscriber process's endpoint)
//   collocated                  host_subscribers, connect_publisher({})
//   then, on the measured path  push(event)
//
// With `dds`, every subscriber, even one in the publisher's process, is fed
// by its channel's DDS reader of the publisher's topic, on that reader's
// thread; the publisher's channel routes its events to the topic's writer.
#pragma once

#include <omniORB4/CORBA.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/channel_receivers.hpp>
#include <mwccm/dds_channel.hpp>
#include <mwccm/event_channel.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccmevents_subscriber.hpp"

namespace ccmevents {

struct FanoutSettings {
  std::string delivery;  // direct | channel | dds
  std::string gateway;   // a channel between processes: iiop | udp | multicast
  bool verify = false;
  std::uint32_t payload_bytes = 0;
  mwccm::ReceiverSettings receiver;  // where a process's channel receives (and its DDS domain)
  mwccm::DdsTopic topic;             // dds: the publisher's topic
};

// How long a DDS writer waits for the readers of the fan-out (and they for it).
inline constexpr std::chrono::seconds kDdsMatchTimeout{10};

// The publisher's source, as an event channel names its supplier.
inline constexpr const char* kSupplier = "publisher.events";
inline constexpr const char* kEventType = "IDL:CcmEvents/Update:1.0";

// An event channel's counters as a result file records them.
nlohmann::json counters_json(const mwccm::EventChannel& channel);

class Fanout {
 public:
  virtual ~Fanout() = default;
  // Subscribers numbered first .. first + count - 1, each replying to `replies`.
  virtual void host_subscribers(int first, int count, ReplySink& replies) = 0;
  // A subscriber process's endpoint fields, ';'-separated: "consumers=IOR,IOR"
  // (direct) or "channel=ENDPOINT" (its container's receiver).
  virtual std::string subscriber_fields() = 0;
  // The publisher, connected to the subscribers of this process (no lines)
  // or of the processes whose endpoint lines are given, in subscriber order.
  virtual void connect_publisher(const std::vector<std::string>& lines) = 0;
  // One event to every subscriber: the measured call.
  virtual void push(CcmEvents::Update* event) = 0;
  // What each subscriber hosted here received, first first.
  virtual std::vector<std::uint64_t> received() const = 0;
  // What this process's event channel did (mwccm::EventChannel::counters):
  // events received from other processes, duplicates, out of order, lost.
  // null where no channel delivers (direct calls).
  virtual nlohmann::json channel_counters() const = 0;
};

std::unique_ptr<Fanout> make_component_fanout(CORBA::ORB_ptr orb, const FanoutSettings& settings);
std::unique_ptr<Fanout> make_object_fanout(CORBA::ORB_ptr orb, const FanoutSettings& settings);

// The component layer's "endpoints=E1,E2" field: what a subscriber process's
// delivery strategy accepted its subscribers by (mwccm/delivery.hpp), and
// the endpoints in such a field.
std::string endpoints_field(const std::vector<std::string>& endpoints);
std::vector<std::string> subscriber_endpoints(const std::string& line);
// The CORBA references in an endpoint's "consumers=" field.
std::vector<std::string> consumer_references(const std::string& line);
// The receiver's endpoint in an endpoint's "channel=" field.
std::string channel_endpoint(const std::string& line);

}  // namespace ccmevents
