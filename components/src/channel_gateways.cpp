// The sending side of the gateways between channels (channel_gateways.hpp).
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <MwccmEvents.hh>
#include <cerrno>
#include <cstring>
#include <mwccm/channel_gateways.hpp>
#include <stdexcept>

namespace mwccm {

std::string ChannelEndpoint::text() const {
  if (kind == "iiop") return "iiop:" + reference;
  std::string text = kind + ":" + address + ":" + std::to_string(port);
  return kind == "multicast" ? text + "@" + interface : text;
}

ChannelEndpoint parse_endpoint(const std::string& text) {
  ChannelEndpoint endpoint;
  const auto colon = text.find(':');
  endpoint.kind = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (endpoint.kind == "iiop" && !rest.empty()) {
    endpoint.reference = rest;
    return endpoint;
  }
  if (endpoint.kind != "udp" && endpoint.kind != "multicast") {
    throw std::invalid_argument(
        "a channel endpoint is iiop:IOR, udp:ADDRESS:PORT or "
        "multicast:GROUP:PORT@INTERFACE, not '" +
        text + "'");
  }
  std::string address = rest;
  if (endpoint.kind == "multicast") {
    const auto at = address.find('@');
    if (at == std::string::npos)
      throw std::invalid_argument("'" + text + "' names no interface (@ADDRESS)");
    endpoint.interface = address.substr(at + 1);
    address = address.substr(0, at);
  }
  const auto port = address.rfind(':');
  endpoint.address = address.substr(0, port);
  unsigned long number = 0;
  try {
    number = port == std::string::npos ? 0 : std::stoul(address.substr(port + 1));
  } catch (const std::exception&) {
    number = 0;
  }
  if (number == 0 || number > 65535 || endpoint.address.empty())
    throw std::invalid_argument("'" + text + "' names no ADDRESS:PORT");
  endpoint.port = static_cast<std::uint16_t>(number);
  return endpoint;
}

namespace datagram {

std::array<char, kHeaderSize> header(const std::string& supplier, std::uint64_t sequence) {
  const auto length = static_cast<std::uint16_t>(supplier.size());
  std::array<char, kHeaderSize> bytes{
      'M', 'W', 'E', 'V', 1, 0, static_cast<char>(length >> 8), static_cast<char>(length & 0xff)};
  for (std::size_t i = 0; i < 8; ++i) bytes[8 + i] = static_cast<char>(sequence >> (56 - 8 * i));
  return bytes;
}

std::vector<char> encode(const std::string& supplier, std::uint64_t sequence,
                         std::span<const char> cdr) {
  const auto head = header(supplier, sequence);
  std::vector<char> bytes(head.begin(), head.end());
  bytes.insert(bytes.end(), supplier.begin(), supplier.end());
  bytes.insert(bytes.end(), cdr.begin(), cdr.end());
  return bytes;
}

std::optional<Decoded> decode(std::span<const char> bytes) {
  constexpr std::size_t kHeader = kHeaderSize;
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), "MWEV", 4) != 0 || bytes[4] != 1)
    return std::nullopt;
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(bytes[i]); };
  const std::size_t length = (std::size_t{byte(6)} << 8) | byte(7);
  std::uint64_t sequence = 0;
  for (std::size_t i = 8; i < kHeader; ++i) sequence = (sequence << 8) | byte(i);
  if (length == 0 || bytes.size() < kHeader + length) return std::nullopt;
  return Decoded{std::string_view(bytes.data() + kHeader, length), sequence,
                 bytes.subspan(kHeader + length)};
}

}  // namespace datagram

std::string multicast_unavailable(const std::string& address) {
  in_addr wanted{};
  if (inet_pton(AF_INET, address.c_str(), &wanted) != 1) return "not an IPv4 address";
  ifaddrs* all = nullptr;
  if (::getifaddrs(&all) != 0) return std::string("getifaddrs: ") + std::strerror(errno);
  std::string why = "no interface has address " + address;
  for (const ifaddrs* i = all; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if (reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr != wanted.s_addr)
      continue;
    const std::string name = i->ifa_name;
    if ((i->ifa_flags & IFF_UP) == 0) {
      why = "interface " + name + " is down";
    } else if ((i->ifa_flags & (IFF_MULTICAST | IFF_LOOPBACK)) == 0) {
      why = "interface " + name + " has no multicast (IFF_MULTICAST is off)";
    } else {
      why.clear();
    }
    break;
  }
  ::freeifaddrs(all);
  return why;
}

namespace {

sockaddr_in socket_address(const std::string& address, std::uint16_t port,
                           const std::string& endpoint) {
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  if (inet_pton(AF_INET, address.c_str(), &to.sin_addr) != 1)
    throw std::runtime_error("channel endpoint '" + endpoint + "': '" + address +
                             "' is not an IPv4 address");
  return to;
}

// One datagram per event, to a container (udp) or to a group (multicast).
class UdpGateway final : public Gateway {
 public:
  explicit UdpGateway(const ChannelEndpoint& endpoint)
      : text_(endpoint.text()), to_(socket_address(endpoint.address, endpoint.port, text_)) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error(text_ + ": socket: " + std::strerror(errno));
    if (endpoint.kind == "multicast") use_interface(endpoint.interface);
    // Connected: the socket is bound to the address that reaches the peer
    // (never the wildcard), and a peer that is gone (an ICMP port
    // unreachable) fails the next send, which the channel counts.
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&to_), sizeof to_) != 0) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw std::runtime_error(text_ + ": connect: " + why);
    }
  }
  ~UdpGateway() override { ::close(fd_); }

  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    const auto head = datagram::header(supplier, sequence);
    const std::size_t size = head.size() + supplier.size() + cdr.size();
    if (size > datagram::kMaxSize) return false;  // never truncated
    iovec parts[] = {{const_cast<char*>(head.data()), head.size()},
                     {const_cast<char*>(supplier.data()), supplier.size()},
                     {const_cast<char*>(cdr.data()), cdr.size()}};
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = 3;
    return ::sendmsg(fd_, &message, MSG_NOSIGNAL) == static_cast<ssize_t>(size);
  }
  std::string describe() const override { return text_; }

 private:
  // Multicast leaves through the interface of that address, one hop only.
  void use_interface(const std::string& interface) {
    in_addr from{};
    std::string why;
    sockaddr_in local{};
    local.sin_family = AF_INET;
    if (inet_pton(AF_INET, interface.c_str(), &from) != 1) {
      why = "not an IPv4 address";
    } else if (why = multicast_unavailable(interface); !why.empty()) {
      // refused here: the kernel would send anyway, and nobody would receive
    } else if (::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_IF, &from, sizeof from) != 0) {
      why = std::strerror(errno);
    } else if (local.sin_addr = from;
               ::bind(fd_, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0) {
      why = std::strerror(errno);  // sent from that interface's address, not the route's
    }
    if (!why.empty()) {
      ::close(fd_);
      throw std::runtime_error(text_ + ": cannot send multicast through interface " + interface +
                               ": " + why);
    }
    const unsigned char ttl = 1, loop = 1;
    ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
    ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop);
  }

  std::string text_;
  sockaddr_in to_;
  int fd_ = -1;
};

// One two-way CORBA call per event to the receiving container's channel.
class IiopGateway final : public Gateway {
 public:
  IiopGateway(CORBA::ORB_ptr orb, const ChannelEndpoint& endpoint) : text_(endpoint.text()) {
    CORBA::Object_var object = orb->string_to_object(endpoint.reference.c_str());
    link_ = MwccmEvents::ChannelLink::_narrow(object.in());
    if (CORBA::is_nil(link_.in()))
      throw std::runtime_error("channel endpoint '" + text_.substr(0, 60) + "...' is no channel");
  }
  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    Components::OctetSeq bytes(
        static_cast<CORBA::ULong>(cdr.size()), static_cast<CORBA::ULong>(cdr.size()),
        reinterpret_cast<CORBA::Octet*>(const_cast<char*>(cdr.data())), false);
    link_->push(supplier.c_str(), sequence, bytes);  // a CORBA error: the channel counts it
    return true;
  }
  std::string describe() const override { return "iiop"; }

 private:
  std::string text_;
  MwccmEvents::ChannelLink_var link_;
};

}  // namespace

std::shared_ptr<Gateway> make_gateway(CORBA::ORB_ptr orb, const ChannelEndpoint& endpoint) {
  if (endpoint.kind == "iiop") return std::make_shared<IiopGateway>(orb, endpoint);
  return std::make_shared<UdpGateway>(endpoint);
}

}  // namespace mwccm
