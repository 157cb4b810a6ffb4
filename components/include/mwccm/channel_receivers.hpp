// The receiving side of the gateways of one container's event channel
// (docs/events.md section 4): the channel as a CORBA object (iiop), a UDP
// socket (udp), a multicast group joined on an interface (multicast). Each
// is made when a plan first needs it, and publishes the endpoint that the
// sending containers' gateways are made from (channel_gateways.hpp).
// Receivers run on threads of their own (the ORB's, for iiop) and hand
// every event to the channel.
#pragma once

#include <omniORB4/CORBA.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <mwccm/dds_channel.hpp>
#include <mwccm/event_channel.hpp>
#include <string>

namespace mwccm {

// Where a component server receives: its process's settings (a plan's
// mwccm.Channel.* properties of a component server, docs/deployment.md).
struct ReceiverSettings {
  std::string address = "127.0.0.1";  // the UDP socket's
  std::string multicast_group = "239.255.77.77:45077";
  std::string multicast_interface = "127.0.0.1";  // the address of the interface to join on
  DdsDomain dds;  // its DDS participant's (`dds` delivery; dds_channel.hpp)
};

class ChannelReceivers {
 public:
  // `poa`: where the iiop receiver is activated (the container's).
  ChannelReceivers(EventChannel& channel, CORBA::ORB_ptr orb, PortableServer::POA_ptr poa);
  ~ChannelReceivers();  // stops every receiver before the channel may go
  ChannelReceivers(const ChannelReceivers&) = delete;
  ChannelReceivers& operator=(const ChannelReceivers&) = delete;

  // The endpoint of the receiver of that kind ("iiop", "udp", "multicast"),
  // made on first use. std::runtime_error naming the address, group or
  // interface it could not use (multicast on an interface without it).
  // Kind "dds": the reader of `topic` (one per topic), whose endpoint is
  // "dds:TOPIC@CHANNEL", a name for counting the readers a writer waits for.
  std::string endpoint(const std::string& kind, const ReceiverSettings& settings,
                       const DdsTopic& topic = {});
  // Returns once every DDS reader matches a writer (a topic has one);
  // std::runtime_error naming the topic after `timeout`.
  void wait_for_dds_writers(std::chrono::milliseconds timeout);

  class Receiver {
   public:
    virtual ~Receiver() = default;
    virtual std::string endpoint() const = 0;
  };
  // A receiver of another kind, made by a delivery strategy's folder
  // (components/delivery/<name>/): endpoint(kind) makes it on first use.
  using MakeReceiver = std::unique_ptr<Receiver> (*)(EventChannel& channel,
                                                     const ReceiverSettings& settings);
  static void add_kind(const std::string& kind, MakeReceiver make);

 private:
  EventChannel& channel_;
  CORBA::ORB_var orb_;
  PortableServer::POA_var poa_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Receiver>> receivers_;     // by kind
  std::map<std::string, std::unique_ptr<DdsReader>> dds_readers_;  // by topic
};

}  // namespace mwccm
