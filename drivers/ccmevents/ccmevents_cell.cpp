#include "ccmevents_cell.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/delivery.hpp>
#include <stdexcept>
#include <vector>

namespace ccmevents {

namespace {

// A value quoted in a message, cut short: an option may hold anything.
std::string quoted(const std::string& value) {
  return "'" + (value.size() > 64 ? value.substr(0, 64) + "..." : value) + "'";
}

// --option multicast_group=GROUP:PORT: an IPv4 multicast group (224.0.0.0/4)
// and a port, checked here so that a bad value names the option.
std::string checked_group(const std::string& value) {
  const std::string problem = "--option multicast_group=" + quoted(value) +
                              ": GROUP:PORT, an IPv4 multicast group (224.0.0.0 to "
                              "239.255.255.255) and a port from 1 to 65535";
  mwccm::ChannelEndpoint group;
  try {
    group = mwccm::parse_endpoint("multicast:" + value + "@127.0.0.1");
  } catch (const std::invalid_argument&) {
    throw mwbench::UsageError(problem);
  }
  in_addr address{};
  if (inet_pton(AF_INET, group.address.c_str(), &address) != 1 ||
      !IN_MULTICAST(ntohl(address.s_addr))) {
    throw mwbench::UsageError(problem);
  }
  return value;
}

// --option multicast_interface=ADDRESS: one address of this host, and one with
// multicast when the transport is multicast.
std::string checked_interface(const std::string& value, const std::string& transport) {
  in_addr address{};
  if (inet_pton(AF_INET, value.c_str(), &address) != 1 || address.s_addr == htonl(INADDR_ANY)) {
    throw mwbench::UsageError("--option multicast_interface=" + quoted(value) +
                              ": an IPv4 address of this host, not the wildcard");
  }
  const std::string why = transport == "multicast" ? mwccm::multicast_unavailable(value) : "";
  if (!why.empty())
    throw mwbench::UsageError("--option multicast_interface=" + quoted(value) + ": " + why);
  return value;
}

// Without --option delivery: a channel, or the strategy whose transport it is
// (dds for --transport dds).
std::string default_delivery(const std::string& transport) {
  const mwccm::Delivery* channel = mwccm::find_delivery("channel");
  for (const mwccm::Delivery* delivery : mwccm::deliveries()) {
    const auto transports = delivery->transports();
    const bool goes =
        std::find(transports.begin(), transports.end(), transport) != transports.end();
    if (goes && delivery != channel && channel != nullptr) {
      const auto by_channel = channel->transports();
      if (std::find(by_channel.begin(), by_channel.end(), transport) == by_channel.end())
        return delivery->name();
    }
  }
  return "channel";
}

}  // namespace

Cell read_cell(const mwbench::DriverOptions& o) {
  if (o.threads != 1)
    throw mwbench::UsageError("--threads: fanout has one publishing thread; use --subscribers");
  Cell cell;
  cell.layer = o.option("layer", "component");
  if (cell.layer != "component" && cell.layer != "object")
    throw mwbench::UsageError("--option layer=" + cell.layer + ": component or object");
  cell.fanout.delivery = o.option("delivery", default_delivery(o.transport));
  const mwccm::Delivery* delivery = mwccm::find_delivery(cell.fanout.delivery);
  const std::string option = "--option delivery=" + cell.fanout.delivery;
  if (delivery == nullptr)
    throw mwbench::UsageError(option + ": one of " + mwccm::delivery_names());
  if (const std::string why = delivery->unavailable(); !why.empty())
    throw mwbench::UsageError(option + ": " + why);
  if (o.mode == "remote") {
    const std::vector<std::string> transports = delivery->transports();
    if (std::find(transports.begin(), transports.end(), o.transport) == transports.end()) {
      std::string listed;
      for (const auto& transport : transports) listed += (listed.empty() ? "" : ", ") + transport;
      throw mwbench::UsageError("--transport " + o.transport +
                                ": delivery=" + cell.fanout.delivery + " goes by " + listed);
    }
    cell.fanout.gateway = o.transport;
  }
  cell.fanout.verify = o.option_flag("verify", false);
  cell.fanout.payload_bytes = static_cast<std::uint32_t>(o.payload_bytes);
  cell.address = o.bind_address;
  cell.fanout.receiver.address = cell.address;
  cell.fanout.receiver.multicast_interface =
      checked_interface(o.option("multicast_interface", cell.address), o.transport);
  cell.fanout.receiver.multicast_group =
      checked_group(o.option("multicast_group", cell.fanout.receiver.multicast_group));
  // dds: a topic in a partition of its own, so that another fan-out's events
  // on this host (another partition) never reach this one's readers.
  cell.fanout.receiver.dds.address = cell.address;
  cell.fanout.receiver.dds.partition = o.option("dds_partition", "ccmevents");
  cell.fanout.topic.name = "ccmevents/updates";
  return cell;
}

}  // namespace ccmevents
