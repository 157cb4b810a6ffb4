// The gateways between containers' event channels (docs/events.md section
// 4): what a sending channel calls, made from the endpoint the receiving
// container published, and the datagram both UDP gateways use.
//
// Endpoints, as a receiving container publishes them (ChannelReceivers):
//   iiop:IOR:...                       its MwccmEvents::ChannelLink
//   udp:ADDRESS:PORT                   its UDP socket
//   multicast:GROUP:PORT@INTERFACE     the group it joined, on that interface
#pragma once

#include <omniORB4/CORBA.h>

#include <array>
#include <cstdint>
#include <memory>
#include <mwccm/event_channel.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mwccm {

// What an endpoint names: its kind and, for UDP, the address and port
// (and the interface a multicast group is sent from).
struct ChannelEndpoint {
  std::string kind;  // "iiop", "udp" or "multicast"
  std::string reference;
  std::string address;
  std::uint16_t port = 0;
  std::string interface;
  std::string text() const;
};

// std::invalid_argument saying what is wrong with the text.
ChannelEndpoint parse_endpoint(const std::string& text);

// The sending side of a gateway to that endpoint. std::runtime_error naming
// the endpoint (and, for multicast, the interface) if it cannot be made.
std::shared_ptr<Gateway> make_gateway(CORBA::ORB_ptr orb, const ChannelEndpoint& endpoint);

// Why multicast cannot be used through the interface that has `address`, or
// "" if it can: no interface has it, it is down, or it has no multicast
// (IFF_MULTICAST off). Loopback is allowed: Linux delivers a group's
// datagrams to the host's own members through it, and none leaves the host.
std::string multicast_unavailable(const std::string& address);

// The UDP datagram: "MWEV", version 1, the supplier's length and the
// sequence number (big-endian), the supplier, the event's CDR.
namespace datagram {
inline constexpr std::size_t kMaxSize = 65507;  // what one IPv4 UDP datagram carries
inline constexpr std::size_t kHeaderSize = 16;
// The header alone: a gateway sends it, the supplier and the CDR as they are
// (one sendmsg, nothing copied or allocated).
std::array<char, kHeaderSize> header(const std::string& supplier, std::uint64_t sequence);
std::vector<char> encode(const std::string& supplier, std::uint64_t sequence,
                         std::span<const char> cdr);
struct Decoded {
  std::string_view supplier;  // in the bytes decoded: nothing allocated
  std::uint64_t sequence;
  std::span<const char> cdr;
};
// nullopt for bytes that are not one.
std::optional<Decoded> decode(std::span<const char> bytes);
}  // namespace datagram

}  // namespace mwccm
